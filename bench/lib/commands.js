import { command, handRunEnv } from './command.js';
import { runTestsBin } from './fixtures.js';

/** `run-tests <args>` as a user's shell starts it: bin/run-tests.js as a program (its #!
 * line starts node), in `cwd`, with this process's environment, as `node -e 0` has it.
 * `throughNode`: `node bin/run-tests.js`, for a benchmark that gives node options of its own. */
export function runTests(args, { cwd, label, shown, throughNode = false, expectCode = 0, expectOutput = null }) {
  return command({
    label,
    argv: throughNode ? [process.execPath, runTestsBin, ...args] : [runTestsBin, ...args],
    cwd,
    shown: shown ?? `${throughNode ? 'node ' : ''}bin/run-tests.js ${args.join(' ')}`,
    expectCode,
    expectOutput,
  });
}

/** `node -e 0`: the cost of starting node and doing nothing. */
export function bareNode(cwd) {
  return command({ label: 'node -e 0', argv: [process.execPath, '-e', '0'], cwd, shown: 'node -e 0' });
}

/** `bundle exec rake test` as a person would type it: no BUNDLE_* or BUNDLER_* variables. */
export function handRake(cwd, { expectCode = 0, expectOutput = null } = {}) {
  return command({
    label: 'bundle exec rake test',
    argv: ['bundle', 'exec', 'rake', 'test'],
    cwd,
    env: handRunEnv(),
    shown: 'bundle exec rake test',
    expectCode,
    expectOutput,
  });
}
