/** Milliseconds on a monotonic clock. Not performance.now(): the first use of
 * `performance` loads perf_hooks and seven modules of its own, ~1.7 ms before the
 * runner could start. */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** 2000 -> "2s", 1500 -> "1.5s", 500 -> "500ms". */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${Number((ms / 1000).toFixed(3))}s`;
}
