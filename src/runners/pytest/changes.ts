/** What a change needs of a pytest suite: the import graph of its test files and the
 * conftest.py files above them (src/ecosystems/python-imports.ts), resolved where pytest
 * puts them on sys.path: the rootdir, `src/`, the `pythonpath` option, PYTHONPATH, and
 * (rootdir-based import mode) each test file's first directory without `__init__.py`.
 * Plugins named by `-p` (addopts, PYTEST_ADDOPTS, the arguments) or PYTEST_PLUGINS, and
 * pytest11 entry points in the project, load before every test. */
import type { ProjectFacts } from '../../project/facts.js';
import { shellWords } from '../../project/command-line.js';
import { tomlAt, tomlTable } from '../../project/toml.js';
import { projectPython, pythonAffected, pythonPathDirs, type PythonGraphOptions } from '../../ecosystems/python-imports.js';
import type { AffectedRequest, ChangeSupport } from '../types.js';

export const pytestChanges: ChangeSupport = {
  affected: (request) => pythonAffected(request, pytestGraphOptions(request)),
  // A conftest.py above the rootdir (pytest before 7.4 loads it when no config file
  // stops the search), a module on a `pythonpath` outside the project.
  outside: true,
};

export function pytestGraphOptions(request: Pick<AffectedRequest, 'root' | 'facts' | 'env' | 'runnerArgs'>): PythonGraphOptions {
  const { facts, env } = request;
  const options = pytestOptions(facts);
  const addopts = [...(options.addopts ?? []), ...words(env.PYTEST_ADDOPTS ?? ''), ...(request.runnerArgs ?? [])];
  const plugins = [...pluginOptions(addopts), ...(env.PYTEST_PLUGINS ?? '').split(',').map((p) => p.trim())].filter((p) => p !== '' && !p.startsWith('no:'));
  return {
    python: projectPython(request.root, facts),
    roots: ['.', ...(facts.isDirectory('src') ? ['src'] : []), ...(options.pythonpath ?? []), ...pythonPathDirs(request.root, env)],
    conftests: true,
    plugins: [...new Set(plugins)],
    entryPoints: ['pytest11'],
  };
}

/** The names `-p name`, `-pname` and `-p=name` give. */
function pluginOptions(args: readonly string[]): string[] {
  return args.flatMap((arg, i) => (arg === '-p' ? [args[i + 1] ?? ''] : arg.startsWith('-p') && !arg.startsWith('--') ? [arg.slice(2).replace(/^=/, '')] : []));
}

const words = (text: string): string[] => shellWords(text.replace(/\s+/g, ' ')) ?? text.split(/\s+/).filter(Boolean);

interface PytestOptions {
  readonly addopts?: readonly string[];
  readonly pythonpath?: readonly string[];
}

/** `addopts` and `pythonpath` of the file pytest takes its configuration from, in the
 * order pytest looks (pytest.ini always wins, even without a section). */
export function pytestOptions(facts: ProjectFacts): PytestOptions {
  for (const [file, section] of [['pytest.ini', 'pytest'], ['.pytest.ini', 'pytest']] as const) {
    const text = facts.read(file);
    if (text !== null) return fromIni(iniSection(text, section));
  }
  const pyproject = tomlTable(facts.read('pyproject.toml'));
  const legacy = tomlAt(pyproject, 'tool', 'pytest', 'ini_options');
  const native = tomlAt(pyproject, 'tool', 'pytest');
  if (typeof legacy === 'object' && legacy !== null) return fromToml(legacy as Record<string, unknown>);
  if (typeof native === 'object' && native !== null) return fromToml(native as Record<string, unknown>);
  for (const [file, section] of [['tox.ini', 'pytest'], ['setup.cfg', 'tool:pytest']] as const) {
    const values = iniSection(facts.read(file) ?? '', section);
    if (values !== null) return fromIni(values);
  }
  return {};
}

const fromIni = (values: ReadonlyMap<string, string> | null): PytestOptions => ({
  addopts: words(values?.get('addopts') ?? ''),
  pythonpath: (values?.get('pythonpath') ?? '').split(/\s+/).filter(Boolean),
});

function fromToml(table: Record<string, unknown>): PytestOptions {
  const list = (value: unknown, split: (text: string) => string[]): string[] =>
    typeof value === 'string' ? split(value) : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  return { addopts: list(table.addopts, words), pythonpath: list(table.pythonpath, (text) => text.split(/\s+/).filter(Boolean)) };
}

/** The keys of one `[section]` of an ini file, as pytest's iniconfig reads them: `key =
 * value` or `key: value`, indented lines continuing the value; null without the section. */
export function iniSection(text: string, section: string): Map<string, string> | null {
  let values: Map<string, string> | null = null;
  let inside = false;
  let key: string | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*[#;]/.test(line) || line.trim() === '') continue;
    const header = /^\[([^\]]+)\]/.exec(line);
    if (header) {
      inside = header[1]?.trim() === section;
      if (inside) values ??= new Map();
      key = null;
      continue;
    }
    if (!inside || values === null) continue;
    if (/^\s/.test(line) && key !== null) {
      values.set(key, `${values.get(key) ?? ''}\n${line.trim()}`);
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(line);
    if (pair?.[1] !== undefined) {
      key = pair[1].trim();
      values.set(key, (pair[2] ?? '').trim());
    }
  }
  return values;
}
