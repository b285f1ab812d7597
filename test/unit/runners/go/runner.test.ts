import { describe, expect, it } from '@jest/globals';
import { escapeGoRegex, exactTestPattern, go, goRunPattern, modulePath, rerunCommands } from '../../../../src/runners/go/runner.js';
import { selectionCommands } from '../../../../src/runners/go/select.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';

const GO_MOD = 'module example.com/m // the module\n\ngo 1.19\n';
const TESTS = 'package p\n\nfunc TestA(t *testing.T) {}\nfunc Test(t *testing.T) {}\nfunc Testlower(t *testing.T) {}\nfunc ExampleA_b() {}\nfunc FuzzF(f *testing.F) {}\nfunc (s *S) TestMethod() {}\nfunc BenchmarkB(b *testing.B) {}\n';
const FILES = {
  'go.mod': GO_MOD, 'm.go': '', 'm_test.go': 'func TestM(t *testing.T) {}\n', 'sub/s_test.go': TESTS, 'sub/other_test.go': 'func TestOther[T any](t *testing.T) {}\n',
  'sub/helpers_test.go': 'package p\n\nfunc helper() {}\n', 'sub/deep/d_test.go': 'func TestD(t *testing.T) {}\n', 'internal/x/x_test.go': '',
};
const LOG = '/p/.run-tests/runs/ID/test.log';

const request = (over: Partial<PlanRequest> = {}, files: Record<string, string> = FILES): PlanRequest => ({
  root: '/p',
  facts: factsFromFiles('/p', files),
  files: [],
  name: null,
  rerun: null,
  artifacts: artifactPaths('/p', 'ID'),
  env: { PATH: '/bin', GOFLAGS: '-tags=x' },
  reportersDir: '/pkg/reporters',
  ...over,
});

const failed = (id: string): FailedTestRecord => ({ id, test_name: id.split(' ')[1] ?? id, file: null, line: null, status: 'failed', message: 'm' });

describe('go detection', () => {
  it('claims a directory with go.mod, and nothing else', () => {
    expect(go.detect(factsFromFiles('/p', { 'go.mod': GO_MOD }))).toBe('go.mod found: `go test ./...`');
    expect(go.detect(factsFromFiles('/p', { 'main.go': '' }))).toBeNull();
    expect(go.markers).toEqual(['go.mod']);
    expect(go.installHint).toContain('apt-get install golang-go');
  });

  it('reads the module path, quoted or not', () => {
    expect(modulePath(factsFromFiles('/p', { 'go.mod': GO_MOD }))).toBe('example.com/m');
    expect(modulePath(factsFromFiles('/p', { 'go.mod': '// c\nmodule "example.com/q"\n' }))).toBe('example.com/q');
    expect(modulePath(factsFromFiles('/p', { 'go.mod': 'go 1.19\n' }))).toBeNull();
  });
});

describe('go plan', () => {
  it("runs every package with go's test cache, keeping the environment, its log as the report", () => {
    const plan = go.plan(request());
    expect(go.plan(request({ noCache: true })).argv).toEqual(['go', 'test', '-json', '-count=1', './...']);
    const { shownArgv, humanOutput, ...rest } = plan;
    expect(rest).toEqual({
      argv: ['go', 'test', '-json', './...'],
      env: { PATH: '/bin', GOFLAGS: '-tags=x' },
      cwd: '/p',
      reports: [{ path: LOG, parser: 'go-json', hints: { module: 'example.com/m' } }],
    });
    // Shown and streamed as go test prints for a person: without -json.
    expect(shownArgv?.(['go', 'test', '-json', '-count=1', '-run', '-json', './...'])).toEqual(['go', 'test', '-count=1', '-run', '-json', './...']);
    const human = humanOutput?.();
    expect(['{"Action":"output","Package":"m","Output":"--- FAIL: TestA (0.00s)\\n"}', '{"Action":"fail","Package":"m"}', '# m [m.test]', '{not json']
      .map((line) => human?.(line))).toEqual(['--- FAIL: TestA (0.00s)\n', '', '# m [m.test]\n', '{not json\n']);
  });

  it('settles a package-level record with any test of that package, a test with its subtests', () => {
    const record = { id: 'example.com/m/sub', test_name: 'build failed: example.com/m/sub', file: null, line: null, status: 'error' as const, message: 'm' };
    const result = (id: string) => ({ id, name: id, file: null, line: null, status: 'passed' as const });
    expect(go.covers?.(record, result('example.com/m/sub TestA'))).toBe(true);
    expect(go.covers?.(record, result('example.com/m/subpkg TestA'))).toBe(false);
    // A test with subtests is reported as its subtests (file:line selects the top-level test).
    expect(go.covers?.({ ...record, id: 'example.com/m TestA' }, result('example.com/m TestA/x'))).toBe(true);
    expect(go.covers?.({ ...record, id: 'example.com/m TestA' }, result('example.com/m TestAB'))).toBe(false);
    expect(go.covers?.({ ...record, id: 'example.com/m TestA' }, result('example.com/other TestA/x'))).toBe(false);
  });

  it("narrows a _test.go file to the Test, Example and Fuzz functions it declares, in its package", () => {
    const select = (files: string[], name: PlanRequest['name'] = null) => selectionCommands(files, name, request().facts);
    // Not `Testlower` (go does not run it), a method or a benchmark; a generic function's name.
    expect(select(['sub/s_test.go', 'sub/other_test.go'])).toEqual({ commands: [{ run: '^ExampleA_b$|^FuzzF$|^Test$|^TestA$|^TestOther$', packages: ['./sub'] }], notes: [] });
    // Packages with the same functions share a command; others get their own.
    expect(select(['m_test.go', 'sub/deep/d_test.go']).commands).toEqual([{ run: '^TestM$', packages: ['.'] }, { run: '^TestD$', packages: ['./sub/deep'] }]);
    // --name keeps the file's functions its first level matches, then its deeper levels.
    expect(select(['sub/s_test.go'], { text: 'TestA/x', regex: false }).commands).toEqual([{ run: '^TestA$/(?:^x)', packages: ['./sub'] }]);
    expect(select(['sub/s_test.go'], { text: 'Fuzz|Example', regex: true }).commands).toEqual([{ run: '^ExampleA_b$|^FuzzF$', packages: ['./sub'] }]);
    expect(select(['sub/s_test.go'], { text: 'Nothing', regex: false }).commands).toEqual([{ run: '^$', packages: ['./sub'] }]);
    expect(() => select(['sub/helpers_test.go'])).toThrow('sub/helpers_test.go declares no Test, Fuzz or Example function: there is no test in it to run');
  });

  it('runs every package below a directory, and the package of a non-test .go file, with a note', () => {
    const select = (files: string[]) => selectionCommands(files, null, request().facts);
    expect(select(['sub', 'internal/', '.']).commands).toEqual([{ run: null, packages: ['./sub/...', './internal/...', './...'] }]);
    expect(select(['m.go'])).toEqual({ commands: [{ run: null, packages: ['.'] }], notes: ["m.go is not a _test.go file: its package's tests run"] });
    // A file in a directory given whole runs with it.
    expect(select(['sub', 'sub/deep/d_test.go', 'm_test.go']).commands).toEqual([{ run: null, packages: ['./sub/...'] }, { run: '^TestM$', packages: ['.'] }]);
    const plan = go.plan(request({ files: ['m.go', 'sub/s_test.go'] }));
    expect([plan.argv, plan.thenArgv, plan.notes]).toEqual([['go', 'test', '-json', '.'], [['go', 'test', '-json', '-run', '^ExampleA_b$|^FuzzF$|^Test$|^TestA$', './sub']], ["m.go is not a _test.go file: its package's tests run"]]);
  });

  it('passes --name as -run: a /regex/ as written, plain text escaped and split per subtest level', () => {
    expect(goRunPattern({ text: '^TestA$|B', regex: true })).toBe('^TestA$|B');
    expect(goRunPattern({ text: 'Table', regex: false })).toBe('Table');
    expect(goRunPattern({ text: 'a.b (c) [d] x|y', regex: false })).toBe('a\\.b \\(c\\) \\[d\\] x\\|y');
    expect(goRunPattern({ text: 'TestTable/wrong_[neg]', regex: false })).toBe('TestTable$/^wrong_\\[neg\\]');
    expect(goRunPattern({ text: 'Nested/outer/inner', regex: false })).toBe('Nested$/^outer$/^inner');
    const argv = go.plan(request({ name: { text: 'wrong [x]', regex: false }, files: ['sub'] })).argv;
    expect(argv).toEqual(['go', 'test', '-json', '-run', 'wrong \\[x\\]', './sub/...']);
  });

  it('escapes like regexp.QuoteMeta', () => {
    expect(escapeGoRegex('\\.+*?()|[]{}^$ #/-')).toBe('\\\\\\.\\+\\*\\?\\(\\)\\|\\[\\]\\{\\}\\^\\$ #/-');
    expect(exactTestPattern('TestTable/wrong_[neg]')).toBe('^TestTable$/^wrong_\\[neg\\]$');
  });
});

describe('go reruns', () => {
  it('selects each failed leaf exactly, as one alternative of anchored levels per test', () => {
    // Only A/x and B/y failed: `^(A|B)$/^(x|y)$` would also run A/y and B/x.
    const commands = rerunCommands([failed('example.com/m TestA/x'), failed('example.com/m TestB/y'), failed('example.com/m TestN/outer/inner_(bad)')], 'example.com/m');
    expect(commands).toEqual([{ run: '^TestA$/^x$|^TestB$/^y$|^TestN$/^outer$/^inner_\\(bad\\)$', packages: ['.'] }]);
  });

  it('runs each package with its own selection in its own command, via thenArgv', () => {
    const plan = go.plan(request({ rerun: [failed('example.com/m TestA'), failed('example.com/m/sub TestS/wrong_[neg]'), failed('example.com/m TestA')] }));
    expect(plan.argv).toEqual(['go', 'test', '-json', '-run', '^TestA$', '.']);
    expect(plan.thenArgv).toEqual([['go', 'test', '-json', '-run', '^TestS$/^wrong_\\[neg\\]$', './sub']]);
  });

  it('reruns the whole package of a build failure, and shares commands between packages with the same selection', () => {
    const commands = rerunCommands([
      failed('example.com/m/a TestX'), failed('example.com/m/b'), failed('example.com/m/b TestY'),
      failed('example.com/m/c TestX'), failed('example.com/m/d'), failed('other.org/lib TestZ'),
    ], 'example.com/m');
    expect(commands).toEqual([
      { run: '^TestX$', packages: ['./a', './c'] },
      { run: null, packages: ['./b', './d'] },
      { run: '^TestZ$', packages: ['other.org/lib'] },
    ]);
  });

  it('takes the rerun over --name and files', () => {
    const plan = go.plan(request({ rerun: [failed('example.com/m/sub TestS')], name: { text: 'x', regex: false }, files: ['sub'] }));
    expect(plan.argv).toEqual(['go', 'test', '-json', '-run', '^TestS$', './sub']);
    expect(plan.thenArgv).toBeUndefined();
  });
});

describe('go failures without a file', () => {
  const SOURCES = {
    'go.mod': GO_MOD,
    'a_test.go': 'package m\n\nfunc helper() {}\n',
    'm_test.go': 'package m\n\nimport "testing"\n\nfunc TestSilent(t *testing.T) { t.Fail() }\n\nfunc ExampleAdd() {\n\t// Output: 4\n}\n',
    'sub/s_test.go': 'package sub_test\n\n// func TestInComment(\nfunc Example_wrong() {}\n',
  };
  const failure = (id: string, name = id.split(' ')[1] ?? id) => ({ id, name, file: null, line: null, status: 'failed' as const, message: 'm' });
  const locate = (id: string, name?: string) => go.locate?.(failure(id, name), factsFromFiles('/p', SOURCES));

  it('places a test, an example or a subtest at its top-level function, in its package', async () => {
    expect(await locate('example.com/m TestSilent')).toEqual({ file: 'm_test.go', line: 5 });
    expect(await locate('example.com/m ExampleAdd')).toEqual({ file: 'm_test.go', line: 7 });
    expect(await locate('example.com/m TestSilent/case_[1]')).toEqual({ file: 'm_test.go', line: 5 });
    expect(await locate('example.com/m/sub Example_wrong')).toEqual({ file: 'sub/s_test.go', line: 4 });
  });

  it('leaves it unplaced when the function, the package or the name is not one go test runs', async () => {
    expect(await locate('example.com/m TestGone')).toBeNull();
    expect(await locate('example.com/m/sub TestInComment')).toBeNull(); // not at the start of a line
    expect(await locate('other.org/lib TestSilent')).toBeNull(); // outside the module
    expect(await locate('example.com/m', 'package failed: example.com/m')).toBeNull(); // a package-level entry
    expect(await locate('example.com/m helper')).toBeNull();
  });
});
