// What flaky.mjs injects into a checkout: two tests in the project's own language, in a
// new file where its runner finds tests. `run_tests_flaky` fails on its first run and
// passes after; `run_tests_always_fails` always fails. Each counts its runs in a file
// outside the checkout (absolute paths written into the source), so the check knows how
// often each really ran, whatever run-tests says. Each fails by its language's assertion,
// so that run-tests calls it a failure, not an error.
import fs from 'node:fs';
import path from 'node:path';

export const FLAKY = 'run_tests_flaky';
export const ALWAYS = 'run_tests_always_fails';
const FIRST = 'run-tests injected: fails on its first run';
const EVERY = 'run-tests injected: fails on every run';

// JSON's string literal is also Go's, Rust's, Python's, Ruby's and JS's for a plain path.
const lit = (text) => JSON.stringify(text);

const go = (pkg) => ({ flaky, always }) => `package ${pkg}

import (
\t"os"
\t"strconv"
\t"testing"
)

func runTestsCount(path string) int {
\tdata, _ := os.ReadFile(path)
\tn, _ := strconv.Atoi(string(data))
\t_ = os.WriteFile(path, []byte(strconv.Itoa(n+1)), 0644)
\treturn n
}

func Test_${FLAKY}(t *testing.T) {
\tif runTestsCount(${lit(flaky)}) == 0 {
\t\tt.Fatal(${lit(FIRST)})
\t}
}
${always ? `
func Test_${ALWAYS}(t *testing.T) {
\trunTestsCount(${lit(always)})
\tt.Fatal(${lit(EVERY)})
}
` : ''}`;

const rust = ({ flaky, always }) => `fn count(path: &str) -> u32 {
    let n = std::fs::read_to_string(path).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    std::fs::write(path, (n + 1).to_string()).unwrap();
    n
}

#[test]
fn ${FLAKY}() {
    assert!(count(${lit(flaky)}) > 0, ${lit(FIRST)});
}
${always ? `
#[test]
fn ${ALWAYS}() {
    count(${lit(always)});
    assert!(false, ${lit(EVERY)});
}
` : ''}`;

// A unittest.TestCase: pytest collects it too.
const python = ({ flaky, always }) => `import os
import unittest


def count(path):
    n = int(open(path).read()) if os.path.exists(path) else 0
    with open(path, "w") as f:
        f.write(str(n + 1))
    return n


class RunTestsInjected(unittest.TestCase):
    def test_${FLAKY}(self):
        self.assertGreater(count(${lit(flaky)}), 0, ${lit(FIRST)})
${always ? `
    def test_${ALWAYS}(self):
        count(${lit(always)})
        self.fail(${lit(EVERY)})
` : ''}`;

const rubyCount = `module RunTestsInjectedCount
  def self.count(path)
    n = File.exist?(path) ? File.read(path).to_i : 0
    File.write(path, (n + 1).to_s)
    n
  end
end
`;

const rspec = ({ flaky, always }) => `${rubyCount}
RSpec.describe "run-tests injected" do
  it "${FLAKY}" do
    expect(RunTestsInjectedCount.count(${lit(flaky)})).to be > 0
  end
${always ? `
  it "${ALWAYS}" do
    expect(RunTestsInjectedCount.count(${lit(always)})).to be < 0
  end
` : ''}end
`;

// Rails and minitest: the project's test_helper, as its own tests start.
const minitest = (base) => ({ flaky, always }) => `require "test_helper"

${rubyCount}
class RunTestsInjectedTest < ${base}
  def test_${FLAKY}
    assert RunTestsInjectedCount.count(${lit(flaky)}) > 0, ${lit(FIRST)}
  end
${always ? `
  def test_${ALWAYS}
    RunTestsInjectedCount.count(${lit(always)})
    flunk ${lit(EVERY)}
  end
` : ''}end
`;

/** JS: `head` imports fs and whatever the runner needs; `ok(value, message)` asserts. */
const js = (head, ok) => ({ flaky, always }) => `${head}

function count(file) {
  const n = fs.existsSync(file) ? Number(fs.readFileSync(file, 'utf8')) : 0;
  fs.writeFileSync(file, String(n + 1));
  return n;
}

test(${lit(FLAKY)}, () => {
  ${ok(`count(${lit(flaky)}) > 0`, FIRST)};
});
${always ? `
test(${lit(ALWAYS)}, () => {
  count(${lit(always)});
  ${ok('false', EVERY)};
});
` : ''}`;

const nodeAssert = (value, message) => `assert.ok(${value}, ${lit(message)})`;
const expectTrue = (value) => `expect(${value}).toBe(true)`;
const esm = (pkg) => JSON.parse(fs.readFileSync(pkg, 'utf8')).type === 'module';

/** The first existing directory of `names` in cwd, relative ('' for cwd itself). */
const firstDir = (cwd, names) => names.find((name) => fs.existsSync(path.join(cwd, name))) ?? '';

/** The package a Go test in cwd must declare: that of cwd's first non-test .go file. */
function goPackage(cwd) {
  for (const file of fs.readdirSync(cwd).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go')).sort()) {
    const match = /^package\s+(\w+)/m.exec(fs.readFileSync(path.join(cwd, file), 'utf8'));
    if (match) return match[1];
  }
  throw new Error(`no Go package in ${cwd}`);
}

/** Each runner: where its new test file goes (relative to cwd) and its text. */
const RUNNERS = {
  go: (cwd) => ({ file: 'zz_run_tests_flaky_test.go', source: go(goPackage(cwd)) }),
  cargo: () => ({ file: 'tests/run_tests_flaky.rs', source: rust }),
  pytest: (cwd) => ({ file: path.join(firstDir(cwd, ['tests', 'test']), 'test_run_tests_flaky.py'), source: python }),
  unittest: (cwd) => ({ file: path.join(firstDir(cwd, ['tests', 'test']), 'test_run_tests_flaky.py'), source: python }),
  rspec: () => ({ file: 'spec/run_tests_flaky_spec.rb', source: rspec }),
  rails: () => ({ file: 'test/run_tests_flaky_test.rb', source: minitest('ActiveSupport::TestCase') }),
  minitest: () => ({ file: 'test/run_tests_flaky_test.rb', source: minitest('Minitest::Test') }),
  jest: (cwd) => ({
    file: path.join(firstDir(cwd, ['test', 'tests', '__tests__']), 'run-tests-flaky.test.js'),
    source: js("const fs = require('node:fs');", expectTrue),
  }),
  vitest: (cwd) => ({
    file: path.join(firstDir(cwd, ['test', 'tests']), 'run-tests-flaky.test.ts'),
    source: js("import fs from 'node:fs';\nimport { expect, test } from 'vitest';", expectTrue),
  }),
  // mocha's `it` is a global; its default spec and the usual globs take test/*.js.
  mocha: (cwd) => ({
    file: path.join(firstDir(cwd, ['test', 'tests']), 'run-tests-flaky.js'),
    source: js(esm(path.join(cwd, 'package.json'))
      ? "import fs from 'node:fs';\nimport assert from 'node:assert';\nconst test = it;"
      : "const fs = require('node:fs');\nconst assert = require('node:assert');\nconst test = it;", nodeAssert),
  }),
  'node-test': (cwd) => ({
    file: path.join(firstDir(cwd, ['test', 'tests']), 'run-tests-flaky.test.js'),
    source: js(esm(path.join(cwd, 'package.json'))
      ? "import fs from 'node:fs';\nimport assert from 'node:assert';\nimport test from 'node:test';"
      : "const fs = require('node:fs');\nconst assert = require('node:assert');\nconst test = require('node:test');", nodeAssert),
  }),
};

/** The injection for a project: its file (relative to cwd) and `text(counters)`, where
 * `counters` is `{ flaky, always }` (absolute paths; `always: null` leaves that test out). */
export function injectionFor(runner, cwd) {
  const place = RUNNERS[runner];
  if (place === undefined) throw new Error(`no flaky test is defined for runner ${runner}`);
  const { file, source } = place(cwd);
  return { file, text: source };
}
