// The targets of a whole run against the runner run by hand (issue 21): what run-tests
// may add is a share of a suite of 2 seconds or more, and a fixed time on a trivial one,
// whose own time is mostly starting the runner.

/** A suite that takes 2 seconds or more by hand: at most 1.05x. */
export const LONG_SUITE = { maxRatio: 1.05 };

/** A trivial suite (a few or many trivial tests, under 2 seconds by hand): at most 100 ms added. */
export const TRIVIAL_SUITE = { maxAddedMs: 100 };

/** go (issue 29), against `go test -json` alone: run-tests' ratio at most gotestsum's
 * (`gotestsum --format testname`, in the same rounds) plus this, on every suite... */
export const GO_ABOVE_GOTESTSUM = 0.05;

/** ...and at most 1.10x on the suite of 10,000 tests. */
export const GO_LARGE_SUITE = { maxRatio: 1.1 };

/** Reading the events of a real go run of 10,000 tests (about 5 MB): at most 60 ms of CPU. */
export const GO_READ_CPU = { maxMs: 60 };

/** --jobs (issue 23): 4 subprojects of about 1 s each, all at once on a 2-CPU machine,
 * take at most 0.6x the time of running them one after another. */
export const JOBS = { maxRatio: 0.6 };

/** Sharding (issue 23): 4 shards balanced by recorded timings; the slowest at most 1.15x
 * the ideal (the total / 4). */
export const SHARD_BALANCE = { maxRatio: 1.15 };

/** Testing a change (issue 30): planning a one-file change at most 0.2x the full run's
 * time, and running it (`--changed`) at most 0.3x, on a 64-package Go module and a
 * 3,000-test JavaScript project. */
export const CHANGED_PLAN = { maxRatio: 0.2 };
export const CHANGED_RUN = { maxRatio: 0.3 };
