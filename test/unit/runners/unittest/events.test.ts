import { describe, expect, it } from '@jest/globals';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createUnittestParser } from '../../../../src/runners/unittest/events.js';
import { parseText } from '../../../../src/parsers/stream.js';

const outputs = fileURLToPath(new URL('../../../fixtures/outputs/unittest/', import.meta.url));
const read = (name: string): string => readFileSync(outputs + name, 'utf8');
const parse = (text: string) => parseText(createUnittestParser, text, { root: '<root>' });
const brief = (name: string) => parse(read(name)).tests.map((t) => [t.name, t.status, t.file, t.line]);

describe('unittest events, recorded by scripts/record/unittest.sh', () => {
  const cases = readdirSync(outputs).filter((f) => f.endsWith('.jsonl')).sort();

  it('has every recorded case', () => {
    expect(cases).toEqual(['filtered.jsonl', 'import-by-name.jsonl', 'import-error.jsonl', 'import-package.jsonl', 'load-tests.jsonl', 'mixed.jsonl', 'rerun.jsonl', 'setupclass.jsonl', 'src-layout.jsonl', 'truncated.jsonl']);
  });

  // UPDATE_GOLDEN=1 rewrites the expected reports from the recorded outputs: review the diff.
  it.each(cases)('%s gives its expected report', (file) => {
    const expectedFile = outputs + file.replace(/\.jsonl$/, '.expected.json');
    const report = parse(read(file));
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(expectedFile, `${JSON.stringify(report, null, 2)}\n`);
    expect(report).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
  });

  it('counts the mixed run as unittest does: one result per method, an expected failure a skip, an unexpected success a failure', () => {
    const { tests, complete, warnings } = parse(read('mixed.jsonl'));
    const count = (status: string) => tests.filter((t) => t.status === status).length;
    expect([complete, warnings, tests.length, count('passed'), count('failed'), count('error'), count('skipped')]).toEqual([true, [], 13, 5, 4, 1, 3]);
    expect(tests.find((t) => t.name.endsWith('.test_even'))).toMatchObject({
      status: 'failed', line: 34, message: '(i=1): AssertionError: 1 != 0\n(i=3): AssertionError: 1 != 0',
    });
    expect(tests.find((t) => t.name.endsWith('.test_known_bug'))).toMatchObject({ status: 'skipped', message: 'expected failure: AssertionError: 2 != 3' });
  });

  it('names a doctest by its own id, rerun through the module whose load_tests adds it', () => {
    expect(brief('load-tests.jsonl')).toEqual([
      ['tests.test_calc.AddTest.test_adds', 'passed', 'tests/test_calc.py', 13],
      // A doctest is defined where its docstring begins; it failed at its example.
      ['calc.Counter', 'passed', 'calc/__init__.py', 23],
      ['calc.add', 'passed', 'calc/__init__.py', 5],
      ['calc.halve', 'failed', 'calc/__init__.py', 16],
    ]);
    expect(parse(read('load-tests.jsonl')).tests.find((t) => t.name === 'calc.halve')?.id).toBe('tests.test_calc::calc.halve');
  });

  it('makes an import error, a setUpClass error and a name not found error entries with the dotted name that reruns them', () => {
    expect(parse(read('import-error.jsonl')).tests.filter((t) => t.status === 'error')).toEqual([{
      id: 'test_broken', name: 'load error: test_broken', file: 'tests/test_broken.py', line: 3, status: 'error', outside: true, message: "ModuleNotFoundError: No module named 'no_such_module'",
      stack: [{ file: 'tests/test_broken.py', line: 3, function: '<module>' }],
    }]);
    expect(parse(read('setupclass.jsonl')).tests.filter((t) => t.status !== 'passed').map((t) => [t.id, t.name, t.status, t.file, t.line])).toEqual([
      ['tests.test_db.DbTest', 'setUpClass (tests.test_db.DbTest)', 'error', 'tests/test_db.py', 5],
      ['tests.test_module_fixture', 'setUpModule (tests.test_module_fixture)', 'skipped', null, null],
    ]);
    expect(brief('rerun.jsonl')).toEqual([
      ['tests.test_widget.WidgetTest.test_even', 'failed', 'tests/test_widget.py', 34],
      ['load error: tests.test_widget.WidgetTest.test_gone', 'error', 'tests/test_widget.py', null],
    ]);
  });

  it('places an import error at the deepest project frame of its traceback, by discovery and by dotted name alike', () => {
    const errors = (file: string) => parse(read(file)).tests.flatMap((t) => (t.status === 'error' ? [[t.id, t.name, t.file, t.line, t.message]] : []));
    const STORE = ['tests.test_store', 'load error: tests.test_store', 'src/inventory/store.py', 3,
      "ModuleNotFoundError: No module named 'no_such_driver'\nraised in src/inventory/store.py:3, imported from tests/test_store.py:3"];
    const SYNTAX = ['tests.test_syntax', 'load error: tests.test_syntax', 'tests/test_syntax.py', 5, "SyntaxError: expected ':'"];
    // Not tests/__init__.py, the package the failing module is in.
    expect(errors('import-package.jsonl')).toEqual([
      ['tests.test_broken', 'load error: tests.test_broken', 'tests/test_broken.py', 3, "ModuleNotFoundError: No module named 'no_such_module'"], STORE, SYNTAX,
    ]);
    expect(errors('import-by-name.jsonl')).toEqual([STORE, SYNTAX]);
    // The chain of imports, innermost first; a syntax error has no frame of its own.
    expect(parse(read('import-by-name.jsonl')).tests.map((t) => t.status === 'error' ? t.stack : null)).toEqual([
      [{ file: 'src/inventory/store.py', line: 3, function: '<module>' }, { file: 'tests/test_store.py', line: 3, function: '<module>' }], [], null,
    ]);
  });

  it('is incomplete, naming the test that was running, when the run stopped before its end', () => {
    const { complete, warnings, tests } = parse(read('truncated.jsonl'));
    expect([complete, tests.length]).toEqual([false, 12]);
    expect(warnings).toContain('the run stopped while "tests.test_widget.WidgetTest.test_skips_itself" was running');
  });

  it('names an error event without a name by its kind and file', () => {
    const line = (r: Record<string, unknown>) => `${JSON.stringify(r)}\n`;
    const report = parse(line({ event: 'run_start', schema: 1, runner: 'unittest', pid: 1 }) + line({ event: 'error', kind: 'load', file: '<root>/t/test_x.py', line: 2, message: 'boom' }) + line({ event: 'run_end', pid: 1 }));
    expect(report.tests).toEqual([{ id: 't/test_x.py', name: 'load error: t/test_x.py', file: 't/test_x.py', line: 2, status: 'error', outside: true, message: 'boom' }]);
  });
});
