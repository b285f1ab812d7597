/** How often run-tests looks at what the runner wrote while it runs: its output (into the
 * log, the tee, the output copy) and its reports (the parsers, the live count). */
export const POLL_MS = 100;

const pollers = new Set<() => void>();
let timer: NodeJS.Timeout | null = null;

/** Calls `poll` every POLL_MS, with every other poller on the same wake-up, in the order
 * they were added, until the returned function is called. One timer for all: a wake-up
 * of this process costs ~150 µs on a 2-core VM whose cores the runner keeps busy (an
 * empty 30 ms interval alone took ~5 ms of CPU a second), and the log and the report
 * followers each had their own. The timer never keeps the process alive on its own. */
export function everyPoll(poll: () => void): () => void {
  pollers.add(poll);
  if (timer === null) {
    timer = setInterval(() => {
      for (const each of pollers) each();
    }, POLL_MS);
    timer.unref();
  }
  return () => {
    pollers.delete(poll);
    if (pollers.size > 0 || timer === null) return;
    clearInterval(timer);
    timer = null;
  };
}
