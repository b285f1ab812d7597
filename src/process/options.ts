import type { StartOptions } from './types.js';

const MAX_TIMER_MS = 2 ** 31 - 1; // setTimeout fires at once above this

/** Bad options are programming errors: throw a TypeError naming the option and value. */
export function validateStartOptions(options: StartOptions): void {
  const { argv, cwd, logPath, timeoutMs, killGraceMs, maxLogBytes } = options;
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((arg) => typeof arg !== 'string') || argv[0] === '') {
    invalid('argv', 'a non-empty array of strings whose first element is the executable', argv);
  }
  if (typeof cwd !== 'string' || cwd === '') invalid('cwd', 'a non-empty path', cwd);
  if (typeof logPath !== 'string' || logPath === '') invalid('logPath', 'a non-empty path', logPath);
  if (timeoutMs !== null && !isDelay(timeoutMs, 1)) {
    invalid('timeoutMs', `null or a number of milliseconds from 1 to ${MAX_TIMER_MS}`, timeoutMs);
  }
  if (maxLogBytes != null && !(Number.isSafeInteger(maxLogBytes) && maxLogBytes >= 1)) {
    invalid('maxLogBytes', 'null or a whole number of bytes from 1', maxLogBytes);
  }
  if (!isDelay(killGraceMs, 0)) invalid('killGraceMs', `a number of milliseconds from 0 to ${MAX_TIMER_MS}`, killGraceMs);
}

function isDelay(value: unknown, min: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= MAX_TIMER_MS;
}

function invalid(name: string, expected: string, received: unknown): never {
  throw new TypeError(`startProcess: options.${name} must be ${expected}, received ${JSON.stringify(received) ?? String(received)}`);
}
