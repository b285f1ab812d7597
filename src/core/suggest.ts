import path from 'node:path';
import type { RunRequest } from '../model/request.js';
import type { FailedTestRecord, RunStatus } from '../model/results.js';
import { shellQuote } from './quote.js';
import { uncarriable } from './rerun.js';

/** The commands a report suggests (`next`, each failure's `rerun_argv`) run from where
 * the caller stands: with the --cwd and --runner it gave, and a subproject's directory. */
type Caller = Pick<RunRequest, 'cwd' | 'cwdGiven' | 'runner'>;

/** `run-tests`, then the options that find the same project and runner again. */
function start(request: Caller): string[] {
  return ['run-tests', ...(request.cwdGiven === true ? ['--cwd', request.cwd] : []), ...(request.runner === null ? [] : ['--runner', request.runner])];
}

/** The operand that selects a project below the invocation directory; none for the
 * directory itself or one above it, which a run from there finds again. */
export function projectOperand(cwd: string, root: string): string[] {
  const relative = path.relative(cwd, root).split(path.sep).join('/');
  if (relative === '' || relative === '..' || relative.startsWith('../') || path.isAbsolute(relative)) return [];
  // Read as a file, never as an option.
  return [relative.startsWith('-') ? `./${relative}` : relative];
}

/** The command that reruns exactly this failure by its id, or null when no command line
 * can carry it. `--id=<id>` is one word: an id starting with `-` stays the option's value. */
export function rerunArgv(request: Caller, root: string, failure: FailedTestRecord): string[] | null {
  if (uncarriable([failure]).length > 0) return null;
  return [...start(request), `--id=${failure.id}`, ...projectOperand(request.cwd, root)];
}

/** What to run next: the recorded failures after a run that recorded some; the whole
 * suite after a rerun (--failed-only or --id) that passed or found nothing to rerun. */
export function nextArgv(request: Caller & Pick<RunRequest, 'failedOnly' | 'ids'>, roots: readonly string[], outcome: { status: RunStatus; recordedFailures: boolean }): string[] | null {
  // Beside other projects, the invocation directory's own is named too (`.`).
  const operands = roots.flatMap((root) => (roots.length > 1 && root === request.cwd ? ['.'] : projectOperand(request.cwd, root)));
  if (outcome.recordedFailures) return [...start(request), '--failed-only', ...operands];
  const rerun = request.failedOnly || (request.ids ?? []).length > 0;
  if (rerun && (outcome.status === 'passed' || outcome.status === 'nothing_to_rerun')) return [...start(request), ...operands];
  return null;
}

export const asCommand = (argv: readonly string[] | null): string | null => (argv === null ? null : argv.map(shellQuote).join(' '));
