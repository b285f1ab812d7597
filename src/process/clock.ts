/** Milliseconds on a monotonic clock. Not performance.now(): the first use of
 * `performance` loads perf_hooks and seven modules of its own, ~1.7 ms before the
 * runner could start. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
