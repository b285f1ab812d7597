import { ADAPTERS, adapterById } from '../adapters/index.js';
import type { Adapter } from '../adapters/types.js';
import { HarnessError, usageError } from '../core/errors.js';
import type { ProjectFacts } from './facts.js';

export interface Detection {
  readonly adapter: Adapter;
  readonly reason: string;
}

/** The first runner whose detection applies, with its reason; `override` (--runner)
 * skips detection. */
export function detectRunner(facts: ProjectFacts, override: string | null = null): Detection {
  if (override !== null) {
    const adapter = adapterById(override);
    if (!adapter) throw usageError(`--runner ${JSON.stringify(override)} is not a runner; expected one of ${ADAPTERS.map((a) => a.id).join(', ')}`);
    return { adapter, reason: `--runner ${override} given` };
  }
  for (const adapter of ADAPTERS) {
    const reason = adapter.detect(facts);
    if (reason !== null) return { adapter, reason };
  }
  const seen = [...new Set(ADAPTERS.map((a) => a.unmatched?.(facts) ?? null).filter((s): s is string => s !== null))];
  throw new HarnessError(
    'NO_RUNNER',
    `no test runner detected in ${facts.root}; looked for ${ADAPTERS.map((a) => a.lookingFor).join('; ')}${seen.map((s) => `. Saw: ${s}`).join('')}`,
    { path: facts.root },
  );
}
