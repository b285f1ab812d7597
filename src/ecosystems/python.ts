/** What the Python runners (pytest, unittest) both know of a project: its virtualenv,
 * pytest's configuration files, and Python's regular expressions. */
import type { ProjectFacts } from '../project/facts.js';
import { tomlAt, tomlTable } from '../project/toml.js';

const VIRTUALENVS = ['.venv', 'venv'] as const;

/** Config files whose pytest section makes a project pytest's, as pytest reads them. */
const PYTEST_CONFIGS: readonly (readonly [file: string, hasSection: ((text: string) => boolean) | null, shown: string])[] = [
  ['pytest.ini', null, 'pytest.ini'],
  ['.pytest.ini', null, '.pytest.ini'],
  // `[tool.pytest.ini_options]`, pytest 9's `[tool.pytest]`, or the same tables as TOML's dotted keys.
  ['pyproject.toml', (text) => tomlAt(tomlTable(text), 'tool', 'pytest') !== undefined, '[tool.pytest.ini_options] in pyproject.toml'],
  ['tox.ini', (text) => /^\s*\[pytest\]/m.test(text), '[pytest] in tox.ini'],
  ['setup.cfg', (text) => /^\s*\[tool:pytest\]/m.test(text), '[tool:pytest] in setup.cfg'],
];

/** The pytest configuration the project has, as detection shows it, or null. */
export function pytestConfig(facts: ProjectFacts): string | null {
  for (const [file, hasSection, shown] of PYTEST_CONFIGS) {
    const text = facts.exists(file) ? facts.read(file) : null;
    if (text !== null && (hasSection === null || hasSection(text))) return shown;
  }
  return null;
}

/** The project's virtualenv interpreter (relative to the root), or null. */
export function virtualenvPython(facts: ProjectFacts): string | null {
  return VIRTUALENVS.map((dir) => `${dir}/bin/python`).find((python) => facts.isExecutable(python)) ?? null;
}

/** Python's re.escape for the characters that are special outside verbose mode. */
export const escapePythonRegex = (text: string): string => text.replace(/[\\.^$*+?{}[\]|()]/g, (c) => `\\${c}`);
