import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { docTestLocation, panicOf } from '../../../../src/runners/cargo/text.js';
import { packageName, parseCargo } from '../../../../src/runners/cargo/report.js';
import { expectGolden } from '../../parsers/golden.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/cargo/', import.meta.url));
const recorded = (name: string) => readFileSync(`${outputs}${name}.jsonl`, 'utf8');
const recordedText = (name: string) => readFileSync(`${outputs}${name}.txt`, 'utf8');
const ctx = { root: '<root>' };

describe('cargo parser', () => {
  it('keeps unit, integration and doc tests apart, with ids that select their target', () => {
    const { tests, complete } = parseCargo(recorded('mixed'), ctx);
    expect(complete).toBe(true);
    expect(tests.map((t) => [t.name, t.status])).toContainEqual(['doc: src/lib.rs - add (line 3)', 'passed']);
    expect(tests.find((t) => t.name === 'unit: tests::ignored_slow_test')).toMatchObject({ id: 'cargo_mixed --lib tests::ignored_slow_test', status: 'skipped' });
    expect(tests.find((t) => t.name === 'integration tests/api.rs: api_doubles_wrongly')).toMatchObject({ id: 'cargo_mixed --test api api_doubles_wrongly', file: 'tests/api.rs', line: 11, message: 'double(3) was 6' });
  });

  it('pairs a suite with its binary when stdout overtakes stderr, and resolves artifacts printed late', () => {
    const lines = recorded('rerun').split('\n');
    const running = lines.findIndex((l) => l.includes('Running tests/api.rs'));
    const artifacts = lines.filter((l) => l.includes('compiler-artifact'));
    const rest = lines.filter((l, i) => i !== running && !l.includes('compiler-artifact'));
    const suiteEnd = rest.findIndex((l) => l.includes('"type": "suite", "event": "failed"'));
    const reordered = [...rest.slice(0, suiteEnd + 1), lines[running] ?? '', ...artifacts, ...rest.slice(suiteEnd + 1)].join('\n');
    expect(parseCargo(reordered, ctx)).toEqual(parseCargo(recorded('rerun'), ctx));
  });

  it('makes a compile error an error entry at the compiler position, and a failed build without one never a pass', () => {
    expect(parseCargo(recorded('compile-error'), ctx).tests).toEqual([expect.objectContaining({ id: 'cargo_compile_error', file: 'src/lib.rs', line: 11, status: 'error' })]);
    const bare = parseCargo('{"reason":"build-finished","success":false}\n', ctx);
    expect(bare.tests.map((t) => t.status)).toEqual(['error']);
  });

  it('turns the tests running in a binary that crashed into errors, and marks the report incomplete', () => {
    const text = [
      '{"reason":"compiler-artifact","package_id":"path+file:///p#m@0.1.0","manifest_path":"/p/Cargo.toml","target":{"kind":["lib"],"name":"m","src_path":"/p/src/lib.rs"},"executable":"/t/debug/deps/m-0123456789abcdef"}',
      '{"reason":"build-finished","success":true}',
      '     Running unittests src/lib.rs (/t/debug/deps/m-0123456789abcdef)',
      '{ "type": "suite", "event": "started", "test_count": 2 }',
      '{ "type": "test", "event": "started", "name": "tests::a" }',
      '{ "type": "test", "name": "tests::a", "event": "ok" }',
      '{ "type": "test", "event": "started", "name": "tests::boom" }',
      'error: test failed, to rerun pass `--lib`',
      '',
      'Caused by:',
      "  process didn't exit successfully: `/t/debug/deps/m-0123456789abcdef` (signal: 11, SIGSEGV: invalid memory reference)",
      '',
    ].join('\n');
    const report = parseCargo(text, { root: '/p' });
    expect(report.complete).toBe(false);
    expect(report.tests.map((t) => [t.id, t.status])).toEqual([['m --lib tests::a', 'passed'], ['m --lib tests::boom', 'error']]);
    expect(report.tests[1]).toMatchObject({ message: expect.stringContaining('SIGSEGV') });
  });

  it('reads panics in the current and the older format', () => {
    expect(panicOf("\nthread 't' (7) panicked at src/lib.rs:16:9:\nboom\nnote: run with `RUST_BACKTRACE=1`\n")).toEqual({ message: 'boom', at: { file: 'src/lib.rs', line: 16 } });
    expect(panicOf("thread 't' panicked at 'assertion failed: `(left == right)`\n  left: `1`,\n right: `2`', src/lib.rs:16:9\nnote: x\n")).toEqual({
      message: 'assertion failed: `(left == right)`\n  left: `1`,\n right: `2`', at: { file: 'src/lib.rs', line: 16 },
    });
    expect(panicOf('Error: "no panic"\n')).toBeNull();
  });

  it('reads package names and doc test locations', () => {
    expect(packageName('path+file:///w/beta#0.1.0')).toBe('beta');
    expect(packageName('path+file:///w/dir#my-pkg@0.1.0')).toBe('my-pkg');
    expect(packageName('mixed 0.1.0 (path+file:///w/m)')).toBe('mixed');
    expect(docTestLocation('src/lib.rs - Foo::bar (line 12) - compile fail')).toEqual({ file: 'src/lib.rs', line: 12 });
  });

  describe('libtest text (cargo test without JSON)', () => {
    const row = (t: { name: string; file: string | null; line: number | null; status: string }) => [t.name, t.file, t.line, t.status];

    it('reads stdout alone (no Running headers, thread ids in panics): every block counted and named', () => {
      const { tests, complete, warnings } = parseCargo(recordedText('text-stdout'), ctx);
      expect(complete).toBe(true);
      expect(tests.map(row)).toEqual([
        ['tests::adds_two_numbers', null, null, 'passed'],
        ['tests::adds_wrongly', 'src/lib.rs', 36, 'failed'],
        ['tests::ignored_slow_test', null, null, 'skipped'],
        ['tests::panics_in_helper', 'src/lib.rs', 21, 'failed'],
        ['tests::rejects_negative_input', null, null, 'passed'],
        ['api_adds', null, null, 'passed'],
        ['api_doubles_wrongly', 'tests/api.rs', 11, 'failed'],
        ['doc: src/lib.rs - double (line 12)', 'src/lib.rs', 12, 'failed'],
        ['doc: src/lib.rs - add (line 3)', 'src/lib.rs', 3, 'passed'],
      ]);
      expect(tests[1]).toMatchObject({ message: 'assertion `left == right` failed: two and two\n  left: 4\n right: 5' });
      expect(warnings).toEqual([expect.stringMatching(/^libtest output without cargo's `Running` lines/)]);
    });

    it('names tests as a JSON run does when stderr is in the file too', () => {
      const text = parseCargo(recordedText('text-all'), ctx);
      const json = parseCargo(recorded('mixed'), ctx);
      expect(text.warnings).toEqual([]);
      const byName = (r: typeof text) => r.tests.map((t) => [t.name, t.file, t.line, t.status, 'message' in t ? t.message : null]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      expect(byName(text)).toEqual(byName(json));
      expect(text.tests.find((t) => t.name === 'integration tests/api.rs: api_doubles_wrongly')?.id).toBe('--test api api_doubles_wrongly');
    });

    it('reads panics without thread ids (older Rust), timings, ignore reasons, and a block cut off', () => {
      const old = recordedText('text-stdout').replace(/ \(1\) panicked/g, ' panicked')
        .replace('test tests::adds_two_numbers ... ok', 'test tests::adds_two_numbers ... ok <0.002s>')
        .replace('test tests::ignored_slow_test ... ignored', 'test tests::ignored_slow_test ... ignored, too slow');
      const { tests } = parseCargo(old, ctx);
      expect(tests.map(row)).toEqual(parseCargo(recordedText('text-stdout'), ctx).tests.map(row));
      expect(tests[0]).toMatchObject({ durationMs: 2 });
      expect(tests[2]).toMatchObject({ status: 'skipped', message: 'too slow' });
      const cut = recordedText('text-stdout').split('\n\nrunning 2 tests')[0] ?? '';
      const first = parseCargo(cut.replace(/\ntest result: .*\n*$/, '\n'), ctx);
      expect([first.complete, first.tests.length]).toEqual([false, 5]);
    });

    it('reads the failures of the terse form (-q), which names no passing test: never complete', () => {
      const { tests, complete, warnings } = parseCargo(recordedText('text-terse'), ctx);
      expect([complete, tests.map(row)]).toEqual([false, [
        ['tests::adds_wrongly', 'src/lib.rs', 36, 'failed'],
        ['tests::panics_in_helper', 'src/lib.rs', 21, 'failed'],
        ['api_doubles_wrongly', 'tests/api.rs', 11, 'failed'],
        ['doc: src/lib.rs - double (line 12)', 'src/lib.rs', 12, 'failed'],
      ]]);
      expect(warnings[0]).toBe('a libtest block counts 5 tests but names only 2 (the terse output of `cargo test -q` names no passing test): the report is incomplete');
    });

    it('places nothing it cannot: a test that returned Err has no location in text either', () => {
      expectGolden(`${outputs}text-returns-err.expected.json`, parseCargo(recordedText('text-returns-err'), ctx));
      expect(parseCargo(recordedText('text-returns-err'), ctx).tests.filter((t) => t.status === 'failed').map(row)).toEqual([
        ['parse::tests::reads_input', null, null, 'failed'],
        ['tests::reads_input', null, null, 'failed'],
        ['api_halves_odd', null, null, 'failed'],
        ['flags::rejects_flag_word', null, null, 'failed'],
      ]);
    });
  });
});
