import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';

/** Captured before any test fakes it: the waits here take real time. */
const realSetTimeout = globalThis.setTimeout;
const realDelay = (ms: number): Promise<void> => new Promise((resolve) => realSetTimeout(resolve, ms));

/** A run's timers (its timeout, the kill grace, the polls) on jest's fake clock, which the
 * test moves: a timeout then fires once the runner is ready, not whenever the scheduler
 * happened to start it. Dates, hrtime, microtasks and I/O stay real. */
export function fakeTimers(): void {
  jest.useFakeTimers({ doNotFake: ['Date', 'hrtime', 'performance', 'nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate'] });
}

/** Moves the fake clock on by `ms`, firing what falls due. */
export const advance = (ms: number): void => void jest.advanceTimersByTime(ms);

/** Waits in real time, with the fake clock standing still, until the condition holds. */
export async function waitReally(what: string, condition: () => boolean, deadlineMs = 60_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out after ${deadlineMs}ms waiting for ${what}`);
    await realDelay(10);
  }
}

/** Lets the fake clock follow real time until the promise settles. It never runs ahead
 * of real time, so a grace lasts on it at least as long as it would for real. */
export async function flow<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(() => (settled = true), () => (settled = true));
  while (!settled) {
    await realDelay(10);
    advance(10);
  }
  return promise;
}

/** What process `pid` has written to its stdout so far (the capture's file, unlinked or
 * not, read through /proc): readiness seen without the log's poll, which is on the clock. */
export function stdoutOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/fd/1`, 'utf8');
  } catch {
    return '';
  }
}
