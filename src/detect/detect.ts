import { RUNNERS, runnerById } from '../runners/index.js';
import type { Runner } from '../runners/types.js';
import { HarnessError, usageError } from '../model/errors.js';
import type { ProjectFacts } from '../project/facts.js';

export interface Detection {
  readonly adapter: Runner;
  readonly reason: string;
}

/** The first runner whose detection applies, with its reason; `override` (--runner)
 * skips detection. */
export function detectRunner(facts: ProjectFacts, override: string | null = null): Detection {
  if (override !== null) {
    const adapter = runnerById(override);
    if (!adapter) throw usageError(`--runner ${JSON.stringify(override)} is not a runner; expected one of ${RUNNERS.map((a) => a.id).join(', ')}`);
    return { adapter, reason: `--runner ${override} given` };
  }
  for (const adapter of RUNNERS) {
    const reason = adapter.detect(facts);
    if (reason !== null) return { adapter, reason };
  }
  const seen = [...new Set(RUNNERS.map((a) => a.unmatched?.(facts) ?? null).filter((s): s is string => s !== null))];
  throw new HarnessError(
    'NO_RUNNER',
    `no test runner detected in ${facts.root}; looked for ${RUNNERS.map((a) => a.lookingFor).join('; ')}${seen.map((s) => `. Saw: ${s}`).join('')}`,
    { path: facts.root },
  );
}
