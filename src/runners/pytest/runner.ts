import path from 'node:path';
import type { FailedTestRecord } from '../../model/results.js';
import type { ProjectFacts } from '../../project/facts.js';
import { escapePythonRegex, pytestConfig, virtualenvPython } from '../../ecosystems/python.js';
import type { NameFilter } from '../../model/request.js';
import { usageError } from '../../model/errors.js';
import { pythonDefinitionAt } from './at-line.js';
import { refusedOption } from '../../project/runner-args.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { listedUnits, reportersDir } from '../../ecosystems/listed-units.js';
import { pytestChanges } from './changes.js';

/** The plugin module in reporters/pytest, and the launcher that stands for `python3 -m pytest`. */
const PLUGIN = 'run_tests_pytest';
const LAUNCHER = 'run_pytest.py';
/** The plugin in reporters/pytest that lists the files of a collection, for --shard. */
const UNITS_PLUGIN = 'run_tests_pytest_units';
/** pytest's default `python_files`. */
const TEST_FILE = /^(?:test_.*|.*_test)\.py$/;
/** Directories the search for test files inside packages descends into, besides packages
 * (those with `__init__.py`). pytest's own collection goes everywhere but norecursedirs. */
const TEST_DIRS: ReadonlySet<string> = new Set(['tests', 'test', 'src']);
/** How deep below the root: `src/pkg/tests/test_x.py` is three directories down. */
const SEARCH_DEPTH = 3;

export const pytest: Runner = {
  id: 'pytest',
  parsers: { pytest: { load: async () => (await import('./events.js')).createPytestParser } },
  // Where pytest itself looks for its rootdir (setup.py when no config file says more).
  // Not conftest.py: it often lives in tests/ and below, which would make a subdirectory
  // the project root.
  markers: ['pytest.ini', '.pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg', 'setup.py'],
  lookingFor: 'pytest.ini, a pytest section in pyproject.toml, tox.ini or setup.cfg, conftest.py or test_*.py files, also inside packages and src/ (pytest)',
  installHint: 'install pytest (Debian: apt-get install python3-pytest), or into the project\'s virtualenv (.venv/bin/python -m pip install pytest)',

  detect(facts) {
    const evidence = pytestEvidence(facts);
    if (evidence === null) return null;
    const venv = virtualenvPython(facts);
    return `${evidence}: pytest through \`${venv === null ? 'python3' : venv} -m pytest\``;
  },

  plan(request: PlanRequest): Invocation {
    const report = request.artifacts.file('pytest.jsonl');
    const filter = request.rerun === null && request.name !== null ? pytestFilter(request.name) : null;
    const args = request.rerun === null ? [...request.files, ...(request.at ?? [])].map(safeArgument) : rerunArguments(request.rerun);
    const plugins = request.env.PYTEST_PLUGINS;
    const pythonPath = request.env.PYTHONPATH;
    const reporters = path.join(request.reportersDir, 'pytest');
    const env: NodeJS.ProcessEnv = {
      ...request.env,
      PYTHONPATH: pythonPath ? `${reporters}${path.delimiter}${pythonPath}` : reporters,
      PYTEST_PLUGINS: plugins ? `${PLUGIN},${plugins}` : PLUGIN,
      RUN_TESTS_PYTEST_REPORT: report,
    };
    if (filter !== null) env.RUN_TESTS_PYTEST_FILTER = filter;
    else delete env.RUN_TESTS_PYTEST_FILTER;
    const common = { env, cwd: request.root, shownEnv: ['RUN_TESTS_PYTEST_FILTER'], reports: [{ path: report, parser: 'pytest' as const }], noTestsExitCodes: [5] };
    const launcher = pytestLauncher(request.root, request.facts, request.reportersDir);
    return { ...common, ...launcher, argv: [...launcher.argv, ...args, ...(request.runnerArgs ?? [])] };
  },

  /** A unit is a test file, as pytest's own collection finds them (testpaths,
   * python_files, conftest.py): `--collect-only` through the launcher the run uses, with
   * reporters/pytest/run_tests_pytest_units.py noting the files of what it collected and
   * of what failed to collect. */
  shard: {
    selects: 'files',
    units: (request) => {
      const reporters = path.join(reportersDir(request), 'pytest');
      const launcher = pytestLauncher(request.root, request.facts, reportersDir(request));
      const pythonPath = request.env.PYTHONPATH;
      return listedUnits(request.root, {
        argv: [...launcher.argv, '--collect-only', '-q', '-p', UNITS_PLUGIN, ...request.files.map(safeArgument), ...(request.runnerArgs ?? [])],
        cwd: request.root,
        env: { ...request.env, PYTHONPATH: pythonPath ? `${reporters}${path.delimiter}${pythonPath}` : reporters },
        what: "pytest's test files",
        // 2: collection errors, listed as units; 5: nothing collected.
        okCodes: [2, 5],
      });
    },
  },

  /** The import graph of the test files and the conftest.py files above them (changes.ts). */
  changes: pytestChanges,

  /** `-p no:run_tests_pytest` would turn off the plugin run-tests reads the results from. */
  refusedArgument(args) {
    const plugin = args.findIndex((arg, i) => pluginOption(arg, args[i + 1]) === `no:${PLUGIN}`);
    const given = args[plugin] === '-p' ? `-p no:${PLUGIN}` : args[plugin];
    if (plugin !== -1) return `${JSON.stringify(given)} cannot be passed to pytest: it turns off ${PLUGIN}, the plugin run-tests reads the results from`;
    return refusedOption('pytest', args, REFUSED);
  },

  /** pytest's node ids: `file::node` as given, and a line as the function or class
   * defined there (`file::Class::test`); pytest runs every parametrization of it. */
  testsAt(file, at, facts) {
    if ('node' in at) return { operands: [`${file}::${at.node}`] };
    const names = pythonDefinitionAt(facts.read(file) ?? '', at.line);
    if (names === null) throw usageError(`no test function or class is defined at ${file}:${at.line}`);
    return { operands: [[file, ...names].join('::')] };
  },

  /** A collection error of a class (id `file::Class`) is settled once a test in it ran. */
  covers(record, result) {
    return result.id.startsWith(`${record.id}::`);
  },
};

/** `python -m pytest` in the project's virtualenv, else our launcher for `python3 -m
 * pytest` (which falls back to a pytest on PATH): argv without pytest's arguments. */
function pytestLauncher(root: string, facts: ProjectFacts, reporters: string): Pick<Invocation, 'argv' | 'shownArgv' | 'requires'> {
  const venv = virtualenvPython(facts);
  if (venv !== null) {
    const python = path.join(root, venv);
    return { argv: [python, '-m', 'pytest'], shownArgv: (argv) => [venv, ...argv.slice(1)], requires: [python] };
  }
  return {
    argv: ['python3', path.join(reporters, 'pytest', LAUNCHER)],
    shownArgv: (argv) => ['python3', '-m', 'pytest', ...argv.slice(2)],
    requires: ['python3'],
  };
}

/** Options after which pytest runs no test, or reports tests it did not run. */
const REFUSED: Readonly<Record<string, string>> = {
  '--collect-only': 'it collects the tests and runs none',
  '--co': 'it collects the tests and runs none',
  '--setup-only': 'it runs the fixtures without the tests',
  '--setup-plan': 'it shows the fixtures without running the tests',
  '--fixtures': 'it lists the fixtures and runs no test',
  '--fixtures-per-test': 'it lists the fixtures and runs no test',
  '--markers': 'it lists the markers and runs no test',
  '--help': 'it prints help and runs no test',
  '-h': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
  '-V': 'it prints the version and runs no test',
};

/** The plugin a `-p` argument names (`-p x`, `-px`), or null. */
function pluginOption(arg: string, next: string | undefined): string | null {
  if (arg === '-p') return next ?? null;
  return arg.startsWith('-p') && !arg.startsWith('--') ? arg.slice(2) : null;
}

/** Why this looks like a pytest project, or null. */
export function pytestEvidence(facts: ProjectFacts): string | null {
  const config = pytestConfig(facts);
  if (config !== null) return `${config} found`;
  if (facts.exists('conftest.py')) return 'conftest.py found';
  for (const dir of ['tests', 'test', '']) {
    const found = testFileIn(facts, dir);
    if (found !== null) return `${found} found`;
  }
  const deep = testFileBelow(facts, '', SEARCH_DEPTH);
  return deep === null ? null : `${deep} found`;
}

/** `tests/test_*.py` (or `*_test.py`) when the directory holds such a file, else null. */
function testFileIn(facts: ProjectFacts, dir: string): string | null {
  const name = facts.list(dir).filter((entry) => TEST_FILE.test(entry)).sort()[0];
  if (name === undefined) return null;
  return `${dir === '' ? '' : `${dir}/`}${name.startsWith('test_') ? 'test_*.py' : '*_test.py'}`;
}

/** Test files inside packages, under src/ and below tests/ (`simplejson/tests/test_*.py`,
 * `src/pkg/tests/test_*.py`, `tests/unit/test_*.py`), which pytest's collection from the
 * root finds: a bounded search through packages, tests/, test/ and src/ directories and
 * everything below a tests/ or test/ directory. */
function testFileBelow(facts: ProjectFacts, dir: string, depth: number, inTests = false): string | null {
  if (depth === 0) return null;
  // In name order: the evidence shown does not depend on the order the disk lists them in.
  for (const name of [...facts.list(dir)].sort()) {
    const sub = dir === '' ? name : `${dir}/${name}`;
    if (name.startsWith('.') || name === '__pycache__' || !facts.isDirectory(sub)) continue;
    if (!inTests && !TEST_DIRS.has(name) && !facts.exists(`${sub}/__init__.py`)) continue;
    const found = testFileIn(facts, sub) ?? testFileBelow(facts, sub, depth - 1, inTests || name === 'tests' || name === 'test');
    if (found !== null) return found;
  }
  return null;
}

/** `--name` for our plugin, which keeps the tests whose id `re.search`es it: plain text
 * is matched as a substring (pytest's -k is an expression language, where spaces,
 * brackets and parentheses cannot be written); a /regex/ is Python's `re`. */
export const pytestFilter = (name: NameFilter): string => (name.regex ? name.text : escapePythonRegex(name.text));

/** A path or node id pytest would otherwise read as an option. */
const safeArgument = (arg: string): string => (arg.startsWith('-') ? `./${arg}` : arg);

/** Exact node ids on the command line (pytest takes them as given, brackets and spaces
 * too); a file-level entry (a collection error) reruns its whole file, which makes its
 * other ids redundant. */
export function rerunArguments(rerun: readonly FailedTestRecord[]): string[] {
  const wholeFiles = new Set(rerun.filter((t) => !t.id.includes('::')).map((t) => t.id));
  const ids = rerun.map((t) => t.id).filter((id) => !id.includes('::') || !wholeFiles.has(id.slice(0, id.indexOf('::'))));
  return [...new Set(ids)].map(safeArgument);
}
