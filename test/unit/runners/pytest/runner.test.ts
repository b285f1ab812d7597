import { describe, expect, it } from '@jest/globals';
import { pytest, pytestFilter, rerunArguments } from '../../../../src/runners/pytest/runner.js';
import { escapePythonRegex } from '../../../../src/ecosystems/python.js';
import type { PlanRequest } from '../../../../src/runners/types.js';
import { ROOT_MARKERS } from '../../../../src/runners/index.js';
import { detectRunner } from '../../../../src/detect/detect.js';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { artifactPaths } from '../../../../src/store/artifacts.js';
import type { FailedTestRecord, TestResult } from '../../../../src/model/results.js';

const failed = (id: string, file: string | null = id.split('::')[0] ?? null): FailedTestRecord => ({ id, test_name: id, file, line: 1, status: 'failed', message: 'm' });
const TESTS = { 'tests/test_a.py': '' };

const request = (files: Record<string, string>, over: Partial<PlanRequest> = {}, executables: string[] = []): PlanRequest => ({
  root: '/p',
  facts: factsFromFiles('/p', files, executables),
  files: [],
  name: null,
  rerun: null,
  artifacts: artifactPaths('/p', 'ID'),
  env: { PATH: '/bin', KEEP: '1' },
  reportersDir: '/pkg/reporters',
  ...over,
});

describe('pytest detection', () => {
  const detect = (files: Record<string, string>, executables: string[] = []) => pytest.detect(factsFromFiles('/p', files, executables));

  it.each([
    [{ 'pytest.ini': '' }, 'pytest.ini found'],
    [{ 'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n' }, '[tool.pytest.ini_options] in pyproject.toml found'],
    [{ 'pyproject.toml': '[project]\nname = "x"\n\n[tool]\npytest.ini_options.addopts = "-q"\n' }, '[tool.pytest.ini_options] in pyproject.toml found'],
    [{ 'pyproject.toml': 'tool.pytest.ini_options = { addopts = "-q" }\n' }, '[tool.pytest.ini_options] in pyproject.toml found'],
    [{ 'pyproject.toml': '[ tool.pytest.ini_options ]\naddopts = "-q"\n' }, '[tool.pytest.ini_options] in pyproject.toml found'],
    [{ 'setup.cfg': '[metadata]\nname = x\n[tool:pytest]\n' }, '[tool:pytest] in setup.cfg found'],
    [{ 'tox.ini': '[tox]\n\n[pytest]\ntestpaths = t\n' }, '[pytest] in tox.ini found'],
    [{ 'conftest.py': '' }, 'conftest.py found'],
    [{ 'tests/test_a.py': '' }, 'tests/test_*.py found'],
    [{ 'test_a.py': '' }, 'test_*.py found'],
  ])('%j: %s', (files, evidence) => {
    expect(detect(files)).toBe(`${evidence}: pytest through \`python3 -m pytest\``);
  });

  it.each([
    [{ 'setup.py': '', 'simplejson/__init__.py': '', 'simplejson/tests/__init__.py': '', 'simplejson/tests/test_decode.py': '' }, 'simplejson/tests/test_*.py found'],
    [{ 'pyproject.toml': '[project]\n', 'src/calc/__init__.py': '', 'src/calc/tests/test_add.py': '' }, 'src/calc/tests/test_*.py found'],
    [{ 'src/tests/test_cli.py': '' }, 'src/tests/test_*.py found'],
    [{ 'tests/unit/test_a.py': '' }, 'tests/unit/test_*.py found'],
    [{ 'tests/unit/api/b_test.py': '' }, 'tests/unit/api/*_test.py found'],
    [{ 'pkg/__init__.py': '', 'pkg/test_core.py': '', 'other/__init__.py': '', 'other/tests/test_z.py': '' }, 'other/tests/test_*.py found'],
  ])('finds test files inside packages, under src/ and below tests/: %j', (files, evidence) => {
    expect(detect(files)).toBe(`${evidence}: pytest through \`python3 -m pytest\``);
  });

  it('searches only packages, tests/, test/ and src/, three levels deep, never hidden directories', () => {
    expect(detect({ 'scripts/test_tool.py': '' })).toBeNull(); // not a package
    expect(detect({ '.tox/py/tests/test_a.py': '' })).toBeNull();
    expect(detect({ 'src/a/b/tests/test_x.py': '', 'src/a/__init__.py': '', 'src/a/b/__init__.py': '' })).toBeNull();
    expect(detect({ 'setup.py': '', 'lib/helpers.py': '' })).toBeNull();
  });

  it('reads the config files: a pyproject.toml, setup.cfg or tox.ini without a pytest section is no evidence', () => {
    expect(detect({ 'pyproject.toml': '[project]\nname = "x"\n', 'setup.cfg': '[flake8]\n', 'tox.ini': '[tox]\n', 'tests/helper.py': '' })).toBeNull();
    expect(detect({ 'pyproject.toml': '[project]\n', 'tests/test_a.py': '' })).toBe('tests/test_*.py found: pytest through `python3 -m pytest`');
    expect(detect({ 'pyproject.toml': '[project]\ndescription = """\n[tool.pytest.ini_options]\n"""\n' })).toBeNull();
  });

  it('names the project\'s virtualenv interpreter when there is one', () => {
    expect(detect({ ...TESTS, '.venv/bin/python': '' }, ['.venv/bin/python'])).toBe('tests/test_*.py found: pytest through `.venv/bin/python -m pytest`');
    expect(detect({ ...TESTS, 'venv/bin/python': '' }, ['venv/bin/python'])).toBe('tests/test_*.py found: pytest through `venv/bin/python -m pytest`');
  });

  it('comes after the JavaScript, Go and Rust runners and before minitest', () => {
    expect(detectRunner(factsFromFiles('/p', { Gemfile: '', ...TESTS })).adapter.id).toBe('pytest');
    expect(detectRunner(factsFromFiles('/p', { 'go.mod': 'module x\n', ...TESTS })).adapter.id).toBe('go');
  });

  it('marks roots where pytest looks for its rootdir, never conftest.py', () => {
    expect(pytest.markers).toEqual(['pytest.ini', '.pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg', 'setup.py']);
    expect(ROOT_MARKERS).toEqual(expect.arrayContaining([...pytest.markers]));
    expect(ROOT_MARKERS).not.toContain('conftest.py');
  });
});

describe('pytest plan', () => {
  it('runs python3 -m pytest through our launcher, with the plugin injected through the environment', () => {
    const plan = pytest.plan(request(TESTS));
    expect(plan.argv).toEqual(['python3', '/pkg/reporters/pytest/run_pytest.py']);
    expect(plan.shownArgv?.(plan.argv)).toEqual(['python3', '-m', 'pytest']);
    expect(plan.requires).toEqual(['python3']);
    expect(plan.cwd).toBe('/p');
    expect(plan.env).toEqual({
      PATH: '/bin',
      KEEP: '1',
      PYTHONPATH: '/pkg/reporters/pytest',
      PYTEST_PLUGINS: 'run_tests_pytest',
      RUN_TESTS_PYTEST_REPORT: '/p/.run-tests/runs/ID/pytest.jsonl',
    });
    expect(plan.reports).toEqual([{ path: '/p/.run-tests/runs/ID/pytest.jsonl', parser: 'pytest' }]);
  });

  it('keeps the caller\'s PYTHONPATH and PYTEST_PLUGINS after ours, and drops a stale filter', () => {
    const plan = pytest.plan(request(TESTS, { env: { PYTHONPATH: '/src', PYTEST_PLUGINS: 'theirs', RUN_TESTS_PYTEST_FILTER: 'stale' } }));
    expect([plan.env.PYTHONPATH, plan.env.PYTEST_PLUGINS, plan.env.RUN_TESTS_PYTEST_FILTER]).toEqual(['/pkg/reporters/pytest:/src', 'run_tests_pytest,theirs', undefined]);
  });

  it('runs the virtualenv interpreter directly, shown relative to the project', () => {
    const plan = pytest.plan(request({ ...TESTS, '.venv/bin/python': '' }, { files: ['tests/test_a.py'] }, ['.venv/bin/python']));
    expect(plan.argv).toEqual(['/p/.venv/bin/python', '-m', 'pytest', 'tests/test_a.py']);
    expect(plan.shownArgv?.(plan.argv)).toEqual(['.venv/bin/python', '-m', 'pytest', 'tests/test_a.py']);
    expect(plan.requires).toEqual(['/p/.venv/bin/python']);
  });

  it('passes files as paths, never as options', () => {
    expect(pytest.plan(request(TESTS, { files: ['tests/test_a.py', 'tests/unit', '-odd.py'] })).argv.slice(2)).toEqual(['tests/test_a.py', 'tests/unit', './-odd.py']);
  });

  it('gives --name to the plugin as a Python regex: plain text escaped, a /regex/ as written', () => {
    const plain = pytest.plan(request(TESTS, { name: { text: 'words[[x] and (y)', regex: false } }));
    expect(plain.env.RUN_TESTS_PYTEST_FILTER).toBe('words\\[\\[x\\] and \\(y\\)');
    expect(plain.shownEnv).toEqual(['RUN_TESTS_PYTEST_FILTER']);
    expect(plain.argv.slice(2)).toEqual([]);
    expect(pytestFilter({ text: '^tests/.*::test_(a|b)$', regex: true })).toBe('^tests/.*::test_(a|b)$');
    expect(escapePythonRegex('a.b*c+d?e^f$g{1}h|i\\j')).toBe('a\\.b\\*c\\+d\\?e\\^f\\$g\\{1\\}h\\|i\\\\j');
  });

  it('reruns exact node ids as arguments, brackets and spaces included, and ignores --name', () => {
    const rerun = [failed('tests/test_a.py::test_w[[x] and y]'), failed('tests/test_a.py::TestC::test_d'), failed('tests/test_b.py::test_e')];
    const plan = pytest.plan(request(TESTS, { rerun, name: { text: 'x', regex: false } }));
    expect(plan.argv.slice(2)).toEqual(['tests/test_a.py::test_w[[x] and y]', 'tests/test_a.py::TestC::test_d', 'tests/test_b.py::test_e']);
    expect(plan.env.RUN_TESTS_PYTEST_FILTER).toBeUndefined();
  });

  it('reruns a collection error\'s whole file, without repeating ids inside it', () => {
    const rerun = [failed('tests/test_a.py::test_x'), failed('tests/test_a.py'), failed('tests/test_b.py::test_y'), failed('tests/test_b.py::test_y')];
    expect(rerunArguments(rerun)).toEqual(['tests/test_a.py', 'tests/test_b.py::test_y']);
  });
});

describe('pytest rerun coverage', () => {
  const result = (id: string): TestResult => ({ id, name: id, file: id.split('::')[0] ?? null, line: 1, status: 'passed' });

  it('settles a class-level collection error once a test inside it ran, and nothing else', () => {
    expect(pytest.covers?.(failed('tests/test_a.py::TestC'), result('tests/test_a.py::TestC::test_x'))).toBe(true);
    expect(pytest.covers?.(failed('tests/test_a.py::TestC'), result('tests/test_a.py::TestCart::test_x'))).toBe(false);
    expect(pytest.covers?.(failed('tests/test_a.py::test_p[1]'), result('tests/test_a.py::test_p[2]'))).toBe(false);
  });
});
