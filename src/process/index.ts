export { startProcess } from './start.js';
export { monotonicMs } from './clock.js';
export { groupHasLiveMembers, killProcessGroup } from './kill.js';
export type { ProcessOutcome, RunningProcess, StartOptions } from './types.js';
export { onPath } from './on-path.js';
export { everyPoll } from './poll.js';
export { findMarkedProcesses, isRunId, RUN_ID_ENV, type MarkedProcess } from './marker.js';
export { killMarkedProcesses, leakWarning } from './leftovers.js';
export { mapLines } from './line-map.js';
