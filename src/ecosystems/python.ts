/** What the Python runners (pytest, unittest) both know of a project: its virtualenv,
 * pytest's configuration files, Python's regular expressions and tracebacks. */
import type { ProjectFacts } from '../project/facts.js';
import { tomlAt, tomlTable } from '../project/toml.js';
import type { StackFrame } from '../model/results.js';
import { projectFrames, type RawFrame } from '../parsers/frames.js';

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

/** `  File "/p/tests/test_x.py", line 3, in test_x`: a frame of a Python traceback. */
const TRACEBACK_FRAME = /^\s*File "(.+)", line (\d+), in (.+)$/;

/** A failure's Python traceback for the report: its frames in the project, innermost
 * first as in V8's stacks (Python prints the outermost first); nothing without one. */
export function pythonStack(traceback: string | null, root: string): { stack?: StackFrame[] } {
  if (traceback === null) return {};
  const frames: RawFrame[] = [];
  for (const line of traceback.split('\n')) {
    const frame = TRACEBACK_FRAME.exec(line);
    if (frame?.[1] && frame[2]) frames.push({ file: frame[1], line: Number(frame[2]), function: frame[3] ?? null });
  }
  return { stack: projectFrames(frames.reverse(), root) };
}
