import os from 'node:os';
import v8 from 'node:v8';

/** 8x V8's default of 67,584 bytes of bytecode run before a function is considered hot. */
const INTERRUPT_BUDGET = 8 * 67_584;

let held = false;

/**
 * Makes V8 wait 8x longer before it compiles a function of this process with an
 * optimizing compiler, from the moment the runner starts. While it runs, this process
 * only parses its reports, a few thousand lines a poll: parts of the parser turn hot
 * within a second, and TurboFan compiled them on background threads that take CPU
 * from the runner, for code that had little left to do. On a 2-core VM, go's 1,000
 * tests: this process's CPU 190 -> 164 ms (run 71 -> 59, after go's exit 19 -> 7);
 * 10,000 tests: 319 -> 304 ms. A long parse still reaches optimized code.
 *
 * Not while the build trains the code cache: a cache written under changed flags is
 * rejected by every start with V8's defaults. The same check rejects node's own code
 * cache for a module first loaded after the change, so the ones run-tests loads later
 * are loaded first: os (chalk's colour support) and the standard streams.
 */
export function holdBackOptimizingCompiler(): void {
  if (held || process.env['RUN_TESTS_WRITE_CODE_CACHE'] !== undefined) return;
  held = true;
  // Each loads its module now, if not yet (os is loaded by this file's import).
  void [os.EOL, process.stdout, process.stderr];
  v8.setFlagsFromString(`--interrupt-budget=${String(INTERRUPT_BUDGET)}`);
}
