import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { handRunEnv } from './command.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const created = [];

/** A fresh directory under the system temp dir, removed by `removeTempDirs`. */
export function tempDir(name) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `run-tests-bench-${name}-`)));
  created.push(dir);
  return dir;
}

export function removeTempDirs() {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A temp copy of test/fixtures/projects/<name>, so runs never write into the repo. */
export function copyFixture(name) {
  const dir = tempDir(name);
  fs.cpSync(path.join(repoRoot, 'test/fixtures/projects', name), dir, { recursive: true });
  return dir;
}

/** A copy of a fixture project as a git repository with one commit. */
export function committedCopy(name) {
  const dir = copyFixture(name);
  const git = (...args) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', 'commit', '-q', '-m', 'bench');
  return dir;
}

// No `source` line: bundler resolves against the installed gems (`bundle lock --local`),
// and the project's .bundle/config silences its warning about the missing source.
const GEMFILE = 'gem "minitest"\ngem "rake"\n';
const BUNDLE_CONFIG = '---\nBUNDLE_SILENCE_DEPRECATIONS: "true"\n';
const RAKEFILE = `require "rake/testtask"

Rake::TestTask.new(:test) do |t|
  t.libs << "test"
  t.pattern = "test/**/*_test.rb"
end

task default: :test
`;

/** A bundler + rake + minitest project with the given test files (`{ 'name_test.rb': source }`);
 * its Gemfile.lock comes from `bundle lock --local`, so no network is needed. */
export function minitestProject(name, testFiles) {
  const dir = tempDir(name);
  fs.writeFileSync(path.join(dir, 'Gemfile'), GEMFILE);
  fs.mkdirSync(path.join(dir, '.bundle'));
  fs.writeFileSync(path.join(dir, '.bundle/config'), BUNDLE_CONFIG);
  fs.writeFileSync(path.join(dir, 'Rakefile'), RAKEFILE);
  fs.mkdirSync(path.join(dir, 'test'));
  for (const [file, source] of Object.entries(testFiles)) fs.writeFileSync(path.join(dir, 'test', file), source);
  execFileSync('bundle', ['lock', '--local'], { cwd: dir, env: handRunEnv(), stdio: 'ignore' });
  return dir;
}

/** A test body that does about 1 ms of real work (sorting), like a typical unit test
 * rather than a bare `assert true`. */
export const WORK_BODY = 'data = Array.new(400) { |k| (k * 7919) % 1000 }; 75.times { data = data.sort.reverse }; assert_equal 999, data.max';

/** `tests` passing minitest tests spread over `files` test files, each `assert true`
 * unless a `body` is given. */
export function generatedSuite(tests, files = 10, body = 'assert true') {
  const perFile = Math.ceil(tests / files);
  const sources = {};
  for (let f = 0; f < files; f += 1) {
    const count = Math.min(perFile, tests - f * perFile);
    if (count <= 0) break;
    const methods = Array.from({ length: count }, (_, i) => `  def test_${i}; ${body}; end\n`).join('');
    sources[`generated_${f}_test.rb`] = `require "minitest/autorun"\n\nclass Generated${f}Test < Minitest::Test\n${methods}end\n`;
  }
  return minitestProject(`suite-${tests}${body === 'assert true' ? '' : '-working'}`, sources);
}

/** One passing test that writes `megabytes` lines of 1 MiB to stdout. */
export function floodProject(megabytes) {
  const source = `require "minitest/autorun"

class FloodTest < Minitest::Test
  def test_floods_stdout
    line = "x" * 1_048_576 + "\\n"
    ${megabytes}.times { STDOUT.write(line) }
    assert true
  end
end
`;
  return minitestProject(`flood-${megabytes}mb`, { 'flood_test.rb': source });
}

export const runTestsBin = path.join(repoRoot, 'bin/run-tests.js');
export const resultsPath = path.join(repoRoot, 'bench/RESULTS.md');

/** A Go test body doing about 1 ms of real work (sorting), as real tests do. */
export const GO_WORK_BODY = 'data := make([]int, 2000)\n\tfor k := range data {\n\t\tdata[k] = (k * 7919) % 1000\n\t}\n\tfor r := 0; r < 10; r++ {\n\t\tsort.Ints(data)\n\t\tsort.Sort(sort.Reverse(sort.IntSlice(data)))\n\t}\n\tif data[0] != 999 {\n\t\tt.Fatal("wrong")\n\t}';

/** A stdlib-only Go module of `packages` packages with `perPackage` passing tests each
 * (trivial ones, or each running `body`). */
export function goSuite(packages, perPackage, body = null) {
  const dir = tempDir(`go-${packages * perPackage}${body === null ? '' : '-working'}`);
  fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/bench\n\ngo 1.19\n');
  for (let p = 0; p < packages; p += 1) {
    const tests = Array.from({ length: perPackage }, (_, i) => (body === null
      ? `func Test${i}(t *testing.T) {\n\tif got := strings.Repeat("x", ${i % 7}); len(got) != ${i % 7} {\n\t\tt.Fatalf("got %q", got)\n\t}\n}\n`
      : `func Test${i}(t *testing.T) {\n\t${body}\n}\n`)).join('\n');
    const imports = body === null ? '"strings"' : '"sort"';
    fs.mkdirSync(path.join(dir, `p${p}`));
    fs.writeFileSync(path.join(dir, `p${p}`, `p${p}_test.go`), `package p${p}\n\nimport (\n\t${imports}\n\t"testing"\n)\n\n${tests}`);
  }
  return dir;
}

/** A jest test body doing about 1 ms of real work (sorting). */
export const JEST_WORK_BODY = 'const data = Array.from({ length: 400 }, (_, k) => (k * 7919) % 1000);\n    for (let r = 0; r < 40; r += 1) data.sort((a, b) => (r % 2 ? a - b : b - a));\n    expect(Math.max(...data)).toBe(999);';

/** A jest project of `files` test files with `perFile` passing tests each (trivial, or
 * each running `body`), using the jest installed for run-tests' own tests. */
export function jestSuite(files, perFile, body = null) {
  const dir = tempDir(`jest-${files * perFile}${body === null ? '' : '-working'}`);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-jest', private: true, scripts: { test: 'jest' }, devDependencies: { jest: '*' } }, null, 2));
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  fs.mkdirSync(path.join(dir, 'test'));
  for (let f = 0; f < files; f += 1) {
    const tests = Array.from({ length: perFile }, (_, i) => `  test('case ${i}', () => {\n    ${body ?? `expect([${i}, 1].sort((a, b) => a - b)[0]).toBe(${Math.min(i, 1)});`}\n  });\n`).join('');
    fs.writeFileSync(path.join(dir, 'test', `file${f}.test.js`), `describe('file ${f}', () => {\n${tests}});\n`);
  }
  return dir;
}
