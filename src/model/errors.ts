/** Failures of the harness itself (not of the tests): each carries a code, the exit
 * status it maps to, and the path or command involved. Failing tests are data. */
import { EXIT, type ExitCode } from './exit-codes.js';

export type HarnessErrorCode =
  | 'USAGE'
  | 'NO_RUNNER'
  | 'RUNNER_MISSING'
  | 'RUNNER_UNSUPPORTED'
  | 'SPAWN_FAILED'
  | 'REPORT_MISSING'
  | 'REPORT_UNPARSEABLE'
  | 'STORE_CORRUPT'
  /** `.run-tests` (or a file run-tests writes in it) is a link, not a directory, or not writable. */
  | 'STORE_UNUSABLE'
  | 'FAILURES_MISSING'
  /** The runner failed before running any test (RUNNER_FAILED reports quote its words). */
  | 'RUNNER_FAILED'
  /** The runner's version is outside the range run-tests supports. */
  | 'RUNNER_UNSUPPORTED';

/** Marks a HarnessError whichever copy of this module made it: the CLI's bundle and the
 * bundle of its commands (scripts/build.js) each hold one, and an error the commands
 * throw is caught by the CLI. */
const BRAND = Symbol.for('run-tests.HarnessError');

export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  readonly [BRAND] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  constructor(
    readonly code: HarnessErrorCode,
    message: string,
    readonly detail: { readonly path?: string; readonly command?: string } = {},
  ) {
    super(message);
  }

  /** Usage errors exit 2; every other harness failure exits 3. */
  get exitCode(): ExitCode {
    return this.code === 'USAGE' ? EXIT.USAGE : EXIT.HARNESS_ERROR;
  }
}

export const usageError = (message: string): HarnessError => new HarnessError('USAGE', message);
