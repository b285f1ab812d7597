/** The project's own `python -m unittest` command, as its tox.ini, noxfile.py, Makefile or
 * CI workflow writes it: which arguments it gives unittest and which PYTHONPATH it sets.
 * Read as text, never run. */
import type { ProjectFacts } from '../../project/facts.js';

export interface ProjectCommand {
  /** Where it was found: `tox.ini`, `.github/workflows/test.yml`. */
  readonly source: string;
  /** The arguments after `-m unittest` that run-tests keeps (see ARGUMENTS). */
  readonly args: readonly string[];
  /** Root-relative directories the command puts on PYTHONPATH (`PYTHONPATH=src`). */
  readonly pythonPath: readonly string[];
  /** Arguments left out, each with why. */
  readonly dropped: readonly string[];
}

/** unittest's options run-tests passes on, with whether each takes a value. Others are
 * left out: -f and -c stop the run early, -h prints help, and tox's {posargs} or a make
 * variable is not a value run-tests knows. */
const ARGUMENTS: ReadonlyMap<string, boolean> = new Map([
  ['-s', true], ['--start-directory', true], ['-p', true], ['--pattern', true], ['-t', true], ['--top-level-directory', true],
  ['-k', true], ['-v', false], ['--verbose', false], ['-q', false], ['--quiet', false], ['-b', false], ['--buffer', false], ['--locals', false],
]);
/** A word ending a command on a shell line. */
const SHELL_END = /^(?:&&|\|\||;|\||>|>>|2>|2>&1|&|\))$/;
const PYTHON = /^(?:.*\/)?python(?:\d+(?:\.\d+)?)?$|^\{envpython\}$|^\$[({]?PYTHON[)}]?$/;

/** The first command running `python -m unittest` (or `coverage run -m unittest`), in
 * tox.ini, noxfile.py, a Makefile, then the GitHub or GitLab CI config; null if none. */
export function unittestCommand(facts: ProjectFacts): ProjectCommand | null {
  for (const source of commandSources(facts)) {
    const text = facts.read(source);
    if (text === null) continue;
    const found = source === 'noxfile.py' ? fromNoxfile(text) : fromLines(text, source === 'tox.ini');
    if (found !== null) return { source, ...found, pythonPath: [...found.pythonPath, ...(source === 'tox.ini' ? toxPythonPath(text) : [])] };
  }
  return null;
}

/** Whether one of those files runs pytest: the project's own command is then pytest's. */
export function runsPytest(facts: ProjectFacts): boolean {
  return commandSources(facts).some((source) => /(?:^|[\s"'/(])(?:py\.test|pytest)(?:[\s"',)]|$)/m.test(facts.read(source) ?? ''));
}

function commandSources(facts: ProjectFacts): string[] {
  const workflows = ['.github/workflows'].flatMap((dir) => [...facts.list(dir)].sort().filter((f) => /\.ya?ml$/.test(f)).map((f) => `${dir}/${f}`));
  return ['tox.ini', 'noxfile.py', 'Makefile', 'GNUmakefile', 'makefile', ...workflows, '.gitlab-ci.yml'].filter((f) => facts.exists(f));
}

type Found = Omit<ProjectCommand, 'source'>;

/** Shell-like lines: a Makefile recipe, a workflow's `run:`, tox's `commands =`. */
function fromLines(text: string, tox: boolean): Found | null {
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    // A recipe's `@` or `-` prefix; a YAML `run:`, `script:` or list item; tox's `commands =`.
    const command = line.replace(/^\t[@+-]*/, '').replace(/^\s*(?:-\s*)?(?:run|script|commands)\s*[:=]\s*/, '').replace(/^\s*-\s+/, '');
    const found = fromWords(words(command), tox);
    if (found !== null) return found;
  }
  return null;
}

/** `session.run("python", "-m", "unittest", "discover", "-s", "tests")`. */
function fromNoxfile(text: string): Found | null {
  for (const call of text.matchAll(/session\.run\(([^)]*)\)/g)) {
    const literals = [...(call[1] ?? '').matchAll(/"([^"\\]*)"|'([^'\\]*)'/g)].map((m) => m[1] ?? m[2] ?? '');
    const found = fromWords(literals, false);
    if (found !== null) return found;
  }
  return null;
}

/** Words split as a shell would for plain words and simple quotes. */
const words = (line: string): string[] => [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');

function fromWords(all: readonly string[], tox: boolean): Found | null {
  const at = all.findIndex((w, i) => w === '-m' && all[i + 1] === 'unittest' && i > 0
    && (PYTHON.test(all[i - 1] ?? '') || (all[i - 1] === 'run' && /(?:^|\/)coverage\d*$/.test(all[i - 2] ?? ''))));
  if (at < 0) return null;
  const pythonPath = all.slice(0, at).flatMap((w) => (w.startsWith('PYTHONPATH=') ? relativePaths(w.slice('PYTHONPATH='.length), tox) : []));
  const end = all.findIndex((w, i) => i > at && SHELL_END.test(w));
  return { ...keptArguments(all.slice(at + 2, end < 0 ? undefined : end)), pythonPath };
}

function keptArguments(given: readonly string[]): Pick<Found, 'args' | 'dropped'> {
  const args: string[] = [];
  const dropped: string[] = [];
  for (let i = 0; i < given.length; i += 1) {
    const word = given[i] ?? '';
    const takesValue = ARGUMENTS.get(word);
    const value = given[i + 1];
    // tox's place for the arguments `tox -- …` is given: none.
    if (word === '{posargs}') continue;
    if (takesValue === true && value !== undefined && known(value)) {
      args.push(word, value);
      i += 1;
    } else if (takesValue === false || (!word.startsWith('-') && known(word))) {
      args.push(word);
    } else {
      dropped.push(word);
    }
  }
  return { args, dropped };
}

/** A value run-tests can pass as written: no tox substitution, make or shell variable. */
const known = (word: string): boolean => word !== '' && !/[{}$`]/.test(word);

/** `src`, `{toxinidir}/src`, `$(CURDIR)/src:lib` as root-relative directories; what is
 * outside the project or unknown is left out. */
function relativePaths(value: string, tox: boolean): string[] {
  return value.split(':').flatMap((part) => {
    const local = part.replace(tox ? /^\{toxinidir\}\/?/ : /^\$[({](?:CURDIR|PWD)[)}]\/?/, '');
    const clean = local.replace(/^\.\/?/, '').replace(/\/$/, '');
    return clean === '' ? ['.'] : known(clean) && !clean.startsWith('/') && !clean.split('/').includes('..') ? [clean] : [];
  });
}

/** `setenv = PYTHONPATH = {toxinidir}/src` (or on the lines below `setenv =`). */
function toxPythonPath(text: string): string[] {
  const match = /^\s*PYTHONPATH\s*=\s*(\S+)\s*$/m.exec(text.replace(/^\s*setenv\s*=\s*/m, ''));
  return match?.[1] === undefined ? [] : relativePaths(match[1], true);
}
