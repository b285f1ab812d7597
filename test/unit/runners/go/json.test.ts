import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseGoJson } from '../../../../src/runners/go/json.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/go/', import.meta.url));
const ctx = { root: '<root>', hints: { module: 'example.com/m' } };
/** The recorded run's context (the module path the adapter reads from go.mod). */
const recordedCtx = (file: string) => ({ root: '<root>', ...JSON.parse(readFileSync(outputs + file.replace(/\.jsonl$/, '.context.json'), 'utf8')) });
const recorded = readdirSync(outputs).filter((f) => f.endsWith('.jsonl'));

const ev = (Action: string, Test?: string, Output?: string, Package = 'example.com/m') =>
  JSON.stringify({ Time: '2000-01-01T00:00:00Z', Action, Package, ...(Test === undefined ? {} : { Test }), ...(Output === undefined ? {} : { Output }) });
const parse = (...lines: string[]) => parseGoJson(`${lines.join('\n')}\n`, ctx);
const brief = (text: string) => parseGoJson(text, recordedCtx('mixed.jsonl')).tests.map((t) => [t.name, t.status, t.file, t.line]);

describe('go test -json, recorded', () => {
  it.each(recorded)('%s gives its expected report', (file) => {
    const report = parseGoJson(readFileSync(outputs + file, 'utf8'), recordedCtx(file));
    expectGolden(outputs + file.replace(/\.jsonl$/, '.expected.json'), report);
  });

  it('lists the leaves of go-mixed with their files and lines, in both packages', () => {
    expect(brief(readFileSync(`${outputs}mixed.jsonl`, 'utf8')).filter(([, s]) => s !== 'passed')).toEqual([
      ['TestSubtractsWrongly', 'failed', 'mixed_test.go', 11],
      ['TestFatalInHelper', 'failed', 'mixed_test.go', 16], // t.Helper(): the caller's line
      ['TestSkipped', 'skipped', 'mixed_test.go', 21],
      ['TestTable/wrong_[neg]', 'failed', 'mixed_test.go', 39],
      ['TestNested/outer/inner_(bad)', 'failed', 'mixed_test.go', 49],
      ['TestHalf', 'failed', 'sub/calc_test.go', 13],
    ]);
  });

  it('reads Go 1.19 and Go 1.23 streams of the same runs alike', () => {
    for (const name of ['mixed', 'build-error']) {
      const strip = (file: string) => brief(readFileSync(`${outputs}${file}.jsonl`, 'utf8'));
      expect(strip(`${name}.go1.23`)).toEqual(strip(name));
    }
  });

  it('turns a build failure into an error entry at the compiler position, still counting the passing package', () => {
    const report = parseGoJson(readFileSync(`${outputs}build-error.jsonl`, 'utf8'), recordedCtx('build-error.jsonl'));
    expect(report.tests.map((t) => [t.id, t.status, t.file, t.line])).toEqual([
      ['example.com/gobuilderror/good TestAnswer', 'passed', null, null],
      ['example.com/gobuilderror/broken', 'error', 'broken/broken_test.go', 9],
    ]);
    expect(report.complete).toBe(true);
  });
});

describe('go test -json, read two ways', () => {
  // Lines in go's own encoding are read by a regular expression and the rest by
  // JSON.parse; both must give the same report, to the byte.
  const reordered = (text: string) => text.split('\n').map((line) => {
    try {
      return JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line) as object).reverse()));
    } catch {
      return line; // plain text, or the cut-off last line of truncated.jsonl
    }
  }).join('\n');

  it.each(recorded)('%s gives the same report with every event in another field order', (file) => {
    const text = readFileSync(outputs + file, 'utf8');
    expect(reordered(text)).not.toBe(text);
    expect(parseGoJson(reordered(text), recordedCtx(file))).toEqual(parseGoJson(text, recordedCtx(file)));
  });

  // go's encoder writes <, > and & as \u003c, \u003e and \u0026, and escapes quotes and tabs.
  const goEncoded = (event: object) => JSON.stringify(event).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  const escaped = (order: 'go' | 'other', test: string) => {
    const events = [
      { Action: 'run', Test: test },
      { Action: 'output', Test: test, Output: `=== RUN   ${test}\n` },
      { Action: 'output', Test: test, Output: '    esc_test.go:7: got "x\ty" <nil> & \u00e9\n' },
      { Action: 'output', Test: test, Output: `--- FAIL: ${test} (0.00s)\n` },
      { Action: 'fail', Test: test, Elapsed: 0.25 },
      { Action: 'fail', Elapsed: 0.3 },
    ].map(({ Action, Test, Output, Elapsed }) => ({ Time: '2000-01-01T00:00:00.5Z', Action, Package: 'example.com/m', Test, Elapsed, Output }));
    return events.map((e) => goEncoded(order === 'go' ? e : Object.fromEntries(Object.entries(e).reverse()))).join('\n');
  };

  it.each(['TestEsc/a<b>_"q"', 'TestPlain'])('decodes the name %s and escaped output exactly', (name) => {
    const report = parseGoJson(`${escaped('go', name)}\n`, ctx);
    expect(report.tests).toEqual([{
      id: `example.com/m ${name}`, name, file: 'esc_test.go', line: 7, durationMs: 250,
      status: 'failed', message: 'esc_test.go:7: got "x\ty" <nil> & \u00e9', suite: 'example.com/m',
    }]);
    expect(parseGoJson(`${escaped('other', name)}\n`, ctx)).toEqual(report);
  });

  it('warns about an event without an Action, showing the line', () => {
    const line = '{"Time":"2000-01-01T00:00:00Z","Package":"example.com/m","Test":"TestA"}';
    expect(parse(line, ev('pass')).warnings).toEqual([`line 1: a go test event without Action or Package, ignored: ${line}`]);
  });
});

describe('go test -json, edge cases', () => {
  it('counts a parent that failed only through its children neither as a test nor as a failure', () => {
    const report = parse(ev('run', 'TestP'), ev('run', 'TestP/a'), ev('run', 'TestP/b'),
      ev('output', 'TestP/b', '    p_test.go:7: bad\n'), ev('pass', 'TestP/a'), ev('fail', 'TestP/b'), ev('fail', 'TestP'),
      ev('fail'));
    expect(report.tests.map((t) => [t.name, t.status])).toEqual([['TestP/a', 'passed'], ['TestP/b', 'failed']]);
    expect(report.tests[1]).toMatchObject({ file: 'p_test.go', line: 7, message: 'p_test.go:7: bad', id: 'example.com/m TestP/b' });
  });

  it('counts a parent that failed on its own after its children passed, and a parent without subtests', () => {
    const report = parse(ev('run', 'TestP'), ev('run', 'TestP/a'), ev('pass', 'TestP/a'),
      ev('output', 'TestP', '    p_test.go:9: after the loop\n'), ev('fail', 'TestP'), ev('run', 'TestQ'), ev('pass', 'TestQ'), ev('fail'));
    expect(report.tests.map((t) => [t.name, t.status, t.line])).toEqual([['TestP/a', 'passed', null], ['TestP', 'failed', 9], ['TestQ', 'passed', null]]);
  });

  it('places files of a package in a subdirectory, and of the root package at the root', () => {
    const report = parse(ev('run', 'TestA', undefined, 'example.com/m/deep/pkg'),
      ev('output', 'TestA', '    a_test.go:3: no\n', 'example.com/m/deep/pkg'), ev('fail', 'TestA', undefined, 'example.com/m/deep/pkg'),
      ev('fail', undefined, undefined, 'example.com/m/deep/pkg'));
    expect(report.tests[0]).toMatchObject({ file: 'deep/pkg/a_test.go', line: 3 });
  });

  it('gives no file when the module path is unknown rather than guessing', () => {
    const lines = [ev('run', 'TestA'), ev('output', 'TestA', '    a_test.go:3: no\n'), ev('fail', 'TestA'), ev('fail')];
    const report = parseGoJson(`${lines.join('\n')}\n`, { root: '<root>' });
    expect(report.tests[0]).toMatchObject({ file: null, line: null, message: 'a_test.go:3: no' });
    expect(parse(...lines).tests[0]).toMatchObject({ file: 'a_test.go', line: 3 });
  });

  it('keeps a multi-line message, dedented, without the === RUN and --- FAIL framing', () => {
    const report = parse(ev('run', 'TestA'), ev('output', 'TestA', '=== RUN   TestA\n'),
      ev('output', 'TestA', '    a_test.go:3: got:\n'), ev('output', 'TestA', '        1\n'), ev('output', 'TestA', '--- FAIL: TestA (0.00s)\n'),
      ev('fail', 'TestA'), ev('fail'));
    expect(report.tests[0]).toMatchObject({ status: 'failed', message: 'a_test.go:3: got:\n    1' });
  });

  it("makes a test still running when go's -timeout ends the package an error at its test-file frame", () => {
    const trace = ['panic: test timed out after 1s\n', '\n', 'goroutine 6 [sleep]:\n', 'example.com/m.TestHang(0xc0)\n', '\t<root>/hang_test.go:25 +0x165\n'];
    const report = parse(ev('run', 'TestOk'), ev('pass', 'TestOk'), ev('run', 'TestHang'),
      ...trace.map((line) => ev('output', 'TestHang', line)), ev('output', undefined, 'FAIL\texample.com/m\t1.01s\n'), ev('fail'));
    expect(report.tests.map((t) => [t.name, t.status, t.file, t.line])).toEqual([['TestOk', 'passed', null, null], ['TestHang', 'error', 'hang_test.go', 25]]);
    expect(report.tests[1]?.status === 'error' && report.tests[1].message).toMatch(/^panic: test timed out after 1s[\s\S]*go's -timeout \(1s\) ended the package while this test ran$/);
    expect(report.warnings).toEqual(["example.com/m: go's -timeout (1s) ended the package while this test ran (TestHang); its later tests did not run"]);
    expect(report.complete).toBe(true);
  });

  it('reports a package that failed outside any test (TestMain, init) as one error entry', () => {
    const report = parse(ev('output', undefined, 'setup went wrong\n'), ev('output', undefined, 'FAIL\texample.com/m\t0.01s\n'), ev('fail'));
    expect(report.tests).toEqual([{
      id: 'example.com/m', name: 'package failed: example.com/m', file: null, line: null, status: 'error', outside: true, suite: 'example.com/m',
      message: 'example.com/m failed without reporting a test; its output outside its tests:\nsetup went wrong',
    }]);
  });

  it("says why a package failed after its tests passed first, then quotes its output's last lines, which fit the message", () => {
    const message = (...output: string[]) => {
      const report = parse(ev('run', 'TestOk'), ev('pass', 'TestOk'), ev('output', undefined, 'PASS\n'),
        ...output.map((line) => ev('output', undefined, line)), ev('output', undefined, 'FAIL\texample.com/m\t0.01s\n'), ev('fail'));
      const entry = report.tests.find((t) => t.id === 'example.com/m');
      return entry?.status === 'error' ? entry.message : undefined;
    };
    const why = "go failed example.com/m after its tests passed (its TestMain's exit code, say)";
    expect(message()).toBe(`${why}; it printed nothing outside its tests`);
    expect(message('teardown failed: db still open\n')).toBe(`${why}; its output outside its tests:\nteardown failed: db still open`);
    const lines = Array.from({ length: 40 }, (_, i) => `log line ${i + 1}\n`);
    expect(message(...lines)).toBe(`${why}; the last 15 of its 40 lines of output outside its tests:\n${lines.slice(25).join('').trimEnd()}`);
    // Long lines: fewer are quoted, so that bounding the message never cuts its last line.
    const long = Array.from({ length: 20 }, (_, i) => `${i + 1} ${'x'.repeat(300)}\n`);
    expect(message(...long)).toBe(`${why}; the last 3 of its 20 lines of output outside its tests:\n${long.slice(17).join('').trimEnd()}`);
  });

  it('reads Go 1.24 build-output and build-fail events, and FailedBuild', () => {
    const action = 'example.com/m/b [example.com/m/b.test]';
    const report = parse(JSON.stringify({ ImportPath: action, Action: 'build-output', Output: `# ${action}\n` }),
      JSON.stringify({ ImportPath: action, Action: 'build-output', Output: 'b/b_test.go:4:2: undefined: x\n' }),
      JSON.stringify({ ImportPath: action, Action: 'build-fail' }),
      ev('start', undefined, undefined, 'example.com/m/b'),
      ev('output', undefined, 'FAIL\texample.com/m/b [build failed]\n', 'example.com/m/b'),
      JSON.stringify({ Action: 'fail', Package: 'example.com/m/b', Elapsed: 0, FailedBuild: action }));
    expect(report.tests).toEqual([{ id: 'example.com/m/b', name: 'build failed: example.com/m/b', file: 'b/b_test.go', line: 4, status: 'error', outside: true, message: 'b/b_test.go:4:2: undefined: x', suite: 'example.com/m/b' }]);
    expect(report).toMatchObject({ complete: true, warnings: [] });
  });

  it('points packages that fail because a dependency does not compile at the dependency', () => {
    const report = parse('# example.com/m/lib', './lib/lib.go:3:9: syntax error', 'FAIL\texample.com/m/a [build failed]', 'FAIL\texample.com/m/b [build failed]');
    expect(report.tests.map((t) => [t.id, t.file, t.line])).toEqual([['example.com/m/a', 'lib/lib.go', 3], ['example.com/m/b', 'lib/lib.go', 3]]);
  });

  it('turns other plain text into one warning, never a crash, and never a complete report of nothing', () => {
    const report = parse('go: warning: "./nothing/..." matched no packages', 'more noise');
    expect(report).toEqual({ tests: [], complete: false, packages: [], notes: [], warnings: [`2 line(s) of go's output were neither test events nor build errors, e.g. go: warning: "./nothing/..." matched no packages`] });
  });

  it('counts a parallel top-level test that paused while another ran, which is not a nested run', () => {
    const report = parse(ev('run', 'TestA'), ev('pause', 'TestA'), ev('run', 'TestB'), ev('pass', 'TestB'), ev('cont', 'TestA'), ev('pass', 'TestA'), ev('pass'));
    expect([report.tests.map((t) => t.name), report.warnings]).toEqual([['TestB', 'TestA'], []]);
  });

  it('does not count the failures of a package go passed, which came from a nested run', () => {
    // TestB's run came after TestA ended: not nested by order, still contradicted by the package's pass.
    const report = parse(ev('run', 'TestA'), ev('pass', 'TestA'), ev('run', 'TestB'), ev('fail', 'TestB'), ev('pass'));
    expect(report.tests.map((t) => [t.name, t.status])).toEqual([['TestA', 'passed']]);
    expect(report.warnings).toEqual(['example.com/m: go passed the package, yet its stream says TestB failed: events of a nested run, not counted']);
  });

  it("skips run-tests' own marker lines in the log, which is go's report", () => {
    const report = parse(ev('run', 'TestA'), ev('pass', 'TestA'), 'run-tests: timed out after 3s; sent SIGTERM to process group 7', ev('pass'));
    expect([report.tests.length, report.warnings, report.complete]).toEqual([1, [], true]);
  });

  it('warns once per unknown action and ignores it', () => {
    const report = parse(ev('run', 'TestA'), ev('attr', 'TestA'), ev('attr', 'TestA'), ev('pass', 'TestA'), ev('pass'));
    expect(report.tests).toHaveLength(1);
    expect(report.warnings).toEqual(['line 2: unknown go test action "attr", ignored']);
  });

  it('is incomplete when a line is cut off or a package has no final line', () => {
    const whole = [ev('run', 'TestA'), ev('pass', 'TestA'), ev('pass')];
    expect(parse(...whole).complete).toBe(true);
    expect(parseGoJson(`${whole.slice(0, 2).join('\n')}\n${whole[2]?.slice(0, 20)}`, ctx)).toMatchObject({ complete: false, tests: [{ name: 'TestA' }] });
    expect(parse(...whole.slice(0, 2)).complete).toBe(false);
    expect(parseGoJson('', ctx).complete).toBe(false);
  });
});
