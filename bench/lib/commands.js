import { command, handRunEnv } from './command.js';
import { runTestsBin } from './fixtures.js';

/** `node bin/run-tests.js <args>`, run in `cwd`, with this process's environment. */
export function runTests(args, { cwd, label, shown, expectCode = 0, expectOutput = null }) {
  return command({
    label,
    argv: [process.execPath, runTestsBin, ...args],
    cwd,
    shown: shown ?? `node bin/run-tests.js ${args.join(' ')}`,
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
