import type { TestResult } from '../../model/results.js';

/** What a --changed run ran against what it planned: a test of a unit not planned makes
 * the run no pass (`outside`); a planned unit that ran no test (unless --name narrowed
 * them) is said (`idle`) but decides nothing: a unit may hold no test (a cargo binary
 * without tests, a file of skipped tests the runner does not report). */
export function plannedCheck(planned: ReadonlySet<string>, tests: readonly TestResult[], unitOf: (test: TestResult) => string | null, named: boolean): { outside: string[]; idle: string[] } {
  const ran = new Set<string>();
  const outside = new Set<string>();
  for (const test of tests) {
    const unit = unitOf(test);
    if (unit === null) continue;
    ran.add(unit);
    if (!planned.has(unit)) outside.add(unit);
  }
  const idle = named ? [] : [...planned].filter((unit) => !ran.has(unit));
  const list = (units: Iterable<string>) => [...units].sort().slice(0, 10).join(', ');
  return {
    outside: outside.size === 0 ? [] : [`--changed: tests ran in ${outside.size} unit(s) the plan did not select: ${list(outside)}`],
    idle: idle.length === 0 ? [] : [`--changed: ${idle.length} planned unit(s) ran no test: ${list(idle)}`],
  };
}
