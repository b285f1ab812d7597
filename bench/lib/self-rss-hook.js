// Loaded with `node --import` into the measured process only: at exit, it writes the
// process's own peak RSS (getrusage RUSAGE_SELF, in KiB) to the file named by the env var.
import fs from 'node:fs';

const target = process.env.RUN_TESTS_BENCH_SELF_RSS;
delete process.env.RUN_TESTS_BENCH_SELF_RSS; // keep it out of the runner's environment
if (target) process.on('exit', () => fs.writeFileSync(target, `${process.resourceUsage().maxRSS}\n`));
