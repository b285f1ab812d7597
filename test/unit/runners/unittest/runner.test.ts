import { describe, expect, it } from '@jest/globals';
import { unittest, topLevel, unittestGraphOptions } from '../../../../src/runners/unittest/runner.js';
import { unittestCommand } from '../../../../src/runners/unittest/command.js';
import { rerunArguments, rerunPaths } from '../../../../src/runners/unittest/ids.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { detectRunner } from '../../../../src/detect/detect.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';
import { displayCommand } from '../../../../src/core/quote.js';

const TESTS = { 'tests/__init__.py': '', 'tests/test_a.py': 'import unittest\n' };
const LOAD_TESTS = { 'tests/__init__.py': '', 'tests/test_docs.py': 'import doctest\n\ndef load_tests(loader, tests, ignore):\n    return tests\n' };
const detect = (files: Record<string, string>, executables: string[] = []) => unittest.detect(factsFromFiles('/p', files, executables));
const through = '`python3 -m unittest`';

const record = (id: string, file: string | null, test_name = id): FailedTestRecord => ({ id, test_name, file, line: 1, status: 'failed', message: 'm' });
const request = (files: Record<string, string>, over: Partial<PlanRequest> = {}): PlanRequest => ({
  root: '/p', facts: factsFromFiles('/p', files), files: [], name: null, rerun: null,
  artifacts: artifactPaths('/p', 'ID'), env: { PATH: '/bin', PYTHONPATH: '/mine' }, reportersDir: '/pkg/reporters', ...over,
});
const shown = (files: Record<string, string>, over: Partial<PlanRequest> = {}) => displayCommand(unittest.plan(request(files, over)));

describe('unittest detection', () => {
  it.each([
    [{ 'tox.ini': '[tox]\nenvlist = py3\n\n[testenv]\ncommands = python -m unittest discover -s tests\n' }, 'tox.ini'],
    [{ 'tox.ini': '[testenv]\ncommands =\n    {envpython} -m unittest {posargs}\n' }, 'tox.ini'],
    [{ 'tox.ini': '[testenv]\ncommands = coverage run -m unittest\n' }, 'tox.ini'],
    [{ 'noxfile.py': 'import nox\n\n@nox.session\ndef tests(session):\n    session.run("python", "-m", "unittest", "-v")\n' }, 'noxfile.py'],
    [{ Makefile: 'test:\n\t@python3 -m unittest discover\n' }, 'Makefile'],
    [{ Makefile: 'test:\n\tPYTHONPATH=src python3.11 -m unittest\n' }, 'Makefile'],
    [{ '.github/workflows/ci.yml': 'jobs:\n  t:\n    steps:\n      - run: |\n          pip install .\n          python -m unittest discover -s tests\n' }, '.github/workflows/ci.yml'],
    [{ '.github/workflows/ci.yaml': 'jobs:\n  t:\n    steps:\n      - run: python -m unittest\n' }, '.github/workflows/ci.yaml'],
  ])('%j: the project\'s own command', (files, source) => {
    expect(detect({ ...TESTS, ...files })).toBe(`${source} runs python -m unittest: unittest through ${through}`);
  });

  it('finds load_tests in test modules at the root, in tests/ and in packages', () => {
    expect(detect(LOAD_TESTS)).toBe(`load_tests in tests/test_docs.py: unittest through ${through}`);
    expect(detect({ 'test_all.py': 'def load_tests(loader, tests, pattern):\n    return tests\n' })).toBe(`load_tests in test_all.py: unittest through ${through}`);
    expect(detect({ 'pkg/__init__.py': '', 'pkg/tests/__init__.py': '', 'pkg/tests/test_x.py': 'def load_tests(l, t, p):\n    return t\n' }))
      .toBe(`load_tests in pkg/tests/test_x.py: unittest through ${through}`);
  });

  it.each([
    [{ 'pytest.ini': '' }],
    [{ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' }],
    [{ 'setup.cfg': '[tool:pytest]\n' }],
    [{ 'tox.ini': '[testenv]\ncommands = python -m unittest\n\n[pytest]\naddopts = -q\n' }],
    [{ 'conftest.py': '' }],
    [{ 'tests/conftest.py': '' }],
  ])('is never claimed with pytest configuration: %j', (files) => {
    expect(detect({ ...LOAD_TESTS, Makefile: 'test:\n\tpython -m unittest\n', ...files })).toBeNull();
    expect(detectRunner(factsFromFiles('/p', { ...LOAD_TESTS, Makefile: 'test:\n\tpython -m unittest\n', ...files })).adapter.id).toBe('pytest');
  });

  it('leaves a project whose own command is pytest, or with neither command nor load_tests, to pytest', () => {
    expect(detect({ ...LOAD_TESTS, 'tox.ini': '[testenv]\ncommands = pytest {posargs}\n' })).toBeNull();
    expect(detect({ ...LOAD_TESTS, Makefile: 'test:\n\tpython -m pytest\n' })).toBeNull();
    expect(detect(TESTS)).toBeNull();
    expect(detect({ ...TESTS, Makefile: 'test:\n\tpython -m unittestx\n', 'tox.ini': '# python -m unittest\n' })).toBeNull();
    expect(detectRunner(factsFromFiles('/p', TESTS)).adapter.id).toBe('pytest');
  });

  it('comes before pytest, which claims any test_*.py, and after go', () => {
    expect(detectRunner(factsFromFiles('/p', { ...TESTS, 'tox.ini': '[testenv]\ncommands = python -m unittest\n' })).adapter.id).toBe('unittest');
    expect(detectRunner(factsFromFiles('/p', { ...LOAD_TESTS, 'go.mod': 'module x\n' })).adapter.id).toBe('go');
  });

  it('names the project\'s virtualenv interpreter when there is one', () => {
    expect(detect({ ...LOAD_TESTS, '.venv/bin/python': '' }, ['.venv/bin/python'])).toBe('load_tests in tests/test_docs.py: unittest through `.venv/bin/python -m unittest`');
  });
});

describe('the project\'s command', () => {
  const command = (files: Record<string, string>) => unittestCommand(factsFromFiles('/p', files));

  it('keeps the arguments unittest reads, and the PYTHONPATH the command sets', () => {
    expect(command({ Makefile: 'test:\n\tPYTHONPATH=src:$(CURDIR)/lib python3 -m unittest discover -s tests -t . -p "*_test.py" -v && echo ok\n' })).toEqual({
      source: 'Makefile', args: ['discover', '-s', 'tests', '-t', '.', '-p', '*_test.py', '-v'], pythonPath: ['src', 'lib'], dropped: [],
    });
    expect(command({ 'tox.ini': '[testenv]\nsetenv =\n    PYTHONPATH = {toxinidir}/src\ncommands = python -m unittest -f {posargs}\n' })).toEqual({
      source: 'tox.ini', args: [], pythonPath: ['src'], dropped: ['-f'],
    });
    expect(command({ 'noxfile.py': 'session.run("python", "-m", "unittest", "discover", "tests", "test_*.py")\n' })?.args).toEqual(['discover', 'tests', 'test_*.py']);
  });

  it('says which arguments it leaves out', () => {
    const plan = unittest.plan(request({ ...TESTS, Makefile: 'test:\n\tpython -m unittest -c -f $(ARGS)\n' }));
    expect(plan.notes).toEqual(['Makefile gives unittest -c -f $(ARGS); run-tests leaves them out']);
    expect(plan.argv).toEqual(['python3', '-m', 'unittest']);
  });

  it('reads the top-level directory test ids are relative to', () => {
    const top = (line: string) => topLevel(unittestCommand(factsFromFiles('/p', { Makefile: `t:\n\t${line}\n` })));
    expect(top('python -m unittest')).toBe('.');
    expect(top('python -m unittest discover -s tests')).toBe('tests');
    expect(top('python -m unittest discover -s tests -t .')).toBe('.');
    expect(top('python -m unittest discover tests "test*.py" ./src/')).toBe('src');
  });
});

describe('unittest plan', () => {
  it('runs the project\'s own arguments with the hook first on PYTHONPATH and the project\'s next', () => {
    const files = { ...TESTS, Makefile: 'test:\n\tPYTHONPATH=src python3 -m unittest discover -s tests -t .\n' };
    const plan = unittest.plan(request(files));
    expect(plan.argv).toEqual(['python3', '-m', 'unittest', 'discover', '-s', 'tests', '-t', '.']);
    expect(plan.env).toMatchObject({ PYTHONPATH: '/pkg/reporters/unittest:/p/src:/mine', RUN_TESTS_UNITTEST_EVENTS: '/p/.run-tests/runs/ID/unittest.jsonl', PATH: '/bin' });
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/unittest.jsonl', parser: 'unittest' }]);
    expect([plan.noTestsExitCodes, plan.cwd]).toEqual([[5], '/p']);
    expect(shown(files)).toBe('PYTHONPATH=src python3 -m unittest discover -s tests -t .');
  });

  it('shows a plain --name as unittest\'s -k where that selects the same: no wildcard, no load_tests', () => {
    const files = { ...TESTS, Makefile: 'test:\n\tpython3 -m unittest discover -s tests\n' };
    const plan = unittest.plan(request(files, { name: { text: 'test_even', regex: false } }));
    expect(plan.env['RUN_TESTS_UNITTEST_FILTER']).toBe('test_even');
    expect(shown(files, { name: { text: 'test_even', regex: false } })).toBe('python3 -m unittest discover -s tests -k test_even');
    expect(shown(files, { name: { text: 'a b', regex: false } })).toBe("python3 -m unittest discover -s tests -k 'a b'");
    expect(shown(files, { name: { text: 'a*b', regex: false } })).toBe("RUN_TESTS_UNITTEST_FILTER='a\\*b' python3 -m unittest discover -s tests");
  });

  it('filters --name in the hook: plain text escaped, a /regex/ as written; never on a rerun', () => {
    expect(shown(LOAD_TESTS, { name: { text: 'a.b[1]', regex: false } })).toBe("RUN_TESTS_UNITTEST_FILTER='a\\.b\\[1\\]' python3 -m unittest");
    expect(shown(LOAD_TESTS, { name: { text: '^x|y$', regex: true } })).toBe("RUN_TESTS_UNITTEST_FILTER='^x|y$' python3 -m unittest");
    const plan = unittest.plan(request(LOAD_TESTS, { name: { text: 'x', regex: false }, rerun: [record('tests.test_docs.T.test_x', 'tests/test_docs.py')], env: { RUN_TESTS_UNITTEST_FILTER: 'old' } }));
    expect(plan.env['RUN_TESTS_UNITTEST_FILTER']).toBeUndefined();
  });

  it('runs files by path in one command and each directory discovered in one of its own', () => {
    const files = { ...TESTS, 'tests/unit/__init__.py': '', 'tests/unit/test_b.py': '', 'scripts/test_c.py': '', 'tests/test_d.py': '' };
    const plan = unittest.plan(request(files, { files: ['tests/test_a.py', 'tests/unit', 'scripts', 'tests/test_d.py'] }));
    expect([plan.argv, plan.thenArgv]).toEqual([
      ['python3', '-m', 'unittest', 'tests/test_a.py', 'tests/test_d.py'],
      [['python3', '-m', 'unittest', 'discover', '-s', 'tests/unit', '-t', '.'], ['python3', '-m', 'unittest', 'discover', '-s', 'scripts']],
    ]);
    expect(() => unittest.plan(request(files, { files: ['README.md'] }))).toThrow('unittest runs .py files and directories; "README.md" is neither');
  });

  it('runs a file below the top-level directory by the name discovery gives it, so its tests are named as in the whole run', () => {
    const files = { ...TESTS, Makefile: 'test:\n\tpython3 -m unittest discover -s tests\n', 'tests/unit/test_b.py': '', 'tests/x-y/test_c.py': '' };
    const plan = unittest.plan(request(files, { files: ['tests/test_a.py', 'tests/unit/test_b.py', 'tests/x-y/test_c.py'] }));
    expect(plan.argv).toEqual(['python3', '-m', 'unittest', 'test_a', 'unit.test_b', 'tests/x-y/test_c.py']);
    expect(plan.env['PYTHONPATH']?.split(':')).toContain('/p/tests');
  });

  it('reruns by dotted id, a doctest through its module, from where each test was imported', () => {
    const rerun = [
      record('test_ok.OkTest.test_x', 'tests/test_ok.py'),
      record('tests.test_calc::calc.halve', 'calc/__init__.py', 'calc.halve'),
      record('tests.test_calc::calc.add', 'calc/__init__.py', 'calc.add'),
      record('test_broken', 'tests/test_broken.py', 'load error: test_broken'),
      record('test_broken.B.test_y', 'tests/test_broken.py'),
    ];
    expect(rerunArguments(rerun)).toEqual(['test_ok.OkTest.test_x', 'tests.test_calc', 'test_broken']);
    expect(rerunPaths(rerun, '.')).toEqual(['tests']);
    expect(rerunPaths([record('pkg.tests.test_a.T.test_x', 'src/pkg/tests/test_a.py')], 'lib')).toEqual(['lib', 'src']);
    expect(shown(TESTS, { rerun })).toBe('PYTHONPATH=tests python3 -m unittest test_ok.OkTest.test_x tests.test_calc test_broken');
    expect(() => unittest.plan(request(TESTS, { rerun: [record('-k', null)] }))).toThrow('"-k" is not a unittest name');
  });

  it('settles a load error or a setUpClass error once a test of its module or class ran', () => {
    const result = { id: 'tests.test_db.DbTest.test_query', name: 'tests.test_db.DbTest.test_query', file: 'tests/test_db.py', line: 3, status: 'passed' as const };
    expect(unittest.covers?.(record('tests.test_db.DbTest', 'tests/test_db.py', 'setUpClass (tests.test_db.DbTest)'), result)).toBe(true);
    expect(unittest.covers?.(record('tests.test_db', 'tests/test_db.py', 'load error: tests.test_db'), result)).toBe(true);
    // A doctest of a class is not settled by a doctest of its method.
    expect(unittest.covers?.(record('tests.test_db.DbTest', 'tests/test_db.py', 'tests.test_db.DbTest'), result)).toBe(false);
  });
});

describe('unittestGraphOptions', () => {
  it('roots: the root, the top-level and start directories, the command\'s PYTHONPATH, src/, PYTHONPATH', () => {
    const facts = factsFromFiles('/p', { Makefile: 'test:\n\tPYTHONPATH=lib python3 -m unittest discover -s tests/unit -t tests\n', 'src/x.py': '' });
    expect(unittestGraphOptions({ root: '/p', facts, files: [], env: { PYTHONPATH: '/p/more' } })).toEqual({
      python: 'python3',
      roots: ['.', 'tests', 'tests/unit', 'lib', 'src', 'more'],
      conftests: false,
      plugins: [],
      entryPoints: [],
    });
  });
});
