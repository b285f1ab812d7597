/** What a `--name` run's results say about the name filter itself. */
import type { NameFilter } from '../model/request.js';
import type { Runner } from '../runners/types.js';
import type { RunStatus, TestResult } from '../model/results.js';

export interface NameCheck {
  readonly warnings: readonly string[];
  /** The runner ran tests its filter does not select: it dropped the filter. */
  readonly dropped: boolean;
}

const NONE: NameCheck = { warnings: [], dropped: false };
/** How a warning that the name filter selected nothing begins, whoever says it. */
export const NOTHING_MATCHED = 'no test matched';

/** A `--name` that selected nothing says so; tests the adapter knows the filter does not
 * select say the runner dropped it (checked for plain text only, by the runner's rule). */
export function checkName(name: NameFilter | null, adapter: Pick<Runner, 'selectedByName'>,
  tests: readonly TestResult[], status: RunStatus, runnerWarnings: readonly string[] = []): NameCheck {
  if (name === null) return NONE;
  const shown = `--name ${JSON.stringify(name.text)}`;
  if (tests.length === 0) {
    // Said once: a runner's own report may already say it, with what the filter left out.
    const said = runnerWarnings.some((warning) => warning.startsWith(NOTHING_MATCHED));
    return status === 'no_tests' && !said ? { warnings: [`${NOTHING_MATCHED} ${shown}`], dropped: false } : NONE;
  }
  const selects = adapter.selectedByName?.bind(adapter);
  if (name.regex || selects === undefined) return NONE;
  const others = tests.filter((test) => !selects(name.text, test));
  if (others.length === 0) return NONE;
  const n = others.length;
  const example = others[0]?.name ?? '';
  return {
    warnings: [`the runner ran ${n} ${n === 1 ? 'test' : 'tests'} that ${n === 1 ? 'does' : 'do'} not match ${shown} (e.g. ${JSON.stringify(example)}): it may have dropped the filter`],
    dropped: true,
  };
}
