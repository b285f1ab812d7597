import path from 'node:path';
import type { FailedTestRecord } from '../../model/results.js';
import type { ProjectFacts } from '../../project/facts.js';
import { escapeGoRegex, selectionCommands, unitCommands, type GoCommand } from './select.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { parseGoTestId } from './id.js';
import { modulePath, packageDirOf } from './package.js';
import { goHumanOutput } from './human.js';
import { goTestAt } from './at-line.js';
import { usageError } from '../../model/errors.js';
import { refusedOption } from '../../project/runner-args.js';

export { escapeGoRegex, goRunPattern } from './select.js';
export { modulePath } from './package.js';

/** go prints its JSON events on stdout (and, before Go 1.24, build errors as text on
 * stderr): the log, which holds both, whole lines as they come, is the report, kept
 * once (go's output of a large module runs to tens of MB). go's test cache is used as `go test` uses it: a replayed result is go's
 * own verdict on unchanged inputs (sources, environment, files read); `--no-cache`
 * adds `-count=1`, which runs every test afresh. */
const GO_TEST = ['go', 'test', '-json'] as const;

/** Flags after which go test prints no JSON run-tests reads, runs no test, or passes
 * run-tests' own selection on to the test binary. */
const REFUSED: Readonly<Record<string, string>> = {
  '-json': 'run-tests gives it already (-json=false would leave no events to read)',
  '-c': 'it compiles the test binary and runs no test',
  '-list': 'it lists the tests and runs none',
  '-n': 'it prints the commands and runs none',
  '-args': "everything after it, run-tests' -run and packages too, would go to the test binary",
  '-h': 'it prints help and runs no test',
  '-help': 'it prints help and runs no test',
};

export const go: Runner = {
  id: 'go',
  parsers: { 'go-json': { load: async () => (await import('./json.js')).createGoJsonParser, hints: goReportHints } },
  markers: ['go.mod'],
  lookingFor: 'go.mod (go test)',
  installHint: 'install Go (Debian: apt-get install golang-go)',
  // A passing test has no file, a failure the file where it failed: the id names the test.
  identity: 'name-and-id',
  // go's flags are single-dash words that never bundle: `-c` is not `-count=1`.
  refusedArgument: (args) => refusedOption('go test', args, REFUSED, { bundles: false }),

  /** A unit is a package's directory (`.` for the module root); a part runs exactly its
   * packages. */
  shard: {
    selects: 'units',
    // Loaded here, not before the runner starts: go list runs for --shard only.
    units: async (request) => (await import('./shard.js')).goUnits(request),
    unitOf(test, facts) {
      const dir = packageDirOf(test.suite ?? parseGoTestId(test.id).importPath, modulePath(facts));
      if (dir !== null) return dir === '' ? '.' : dir;
      // Outside the module's import paths: the directory of its file, if it has one.
      return test.file === null ? null : path.posix.dirname(test.file);
    },
  },

  /** `plan`, `--changed`: every package whose test build holds a changed package, from
   * `go list -deps -test`; go.mod, go.sum, go.work and files go cannot place are the whole suite. */
  changes: {
    // Loaded here, not before the runner starts: go list runs for a plan only.
    affected: async (request) => (await import('./changes.js')).goChanges(request),
    // A module replaced by ../lib, a path dependency: files outside the project it places.
    outside: true,
  },

  /** The Test, Fuzz or Example function at the line, run by its exact name in its package. */
  testsAt(file, at, facts) {
    if ('node' in at) throw usageError(`go has no node ids (${file}::${at.node}): give a line, ${file}:<line>`);
    return { tests: [goTestAt(file, at.line, facts.read(file) ?? '', modulePath(facts))] };
  },

  detect(facts) {
    return facts.exists('go.mod') ? 'go.mod found: `go test ./...`' : null;
  },

  plan(request: PlanRequest): Invocation {
    const module = modulePath(request.facts);
    const { commands, notes } = request.rerun
      ? { commands: rerunCommands(request.rerun, module), notes: [] }
      : request.units ? unitCommands(request.units, request.name) : selectionCommands(request.files, request.name, request.facts);
    const test = request.noCache === true ? [...GO_TEST, '-count=1'] : GO_TEST;
    const [first, ...rest] = commands.map(({ run, packages }) => [
      ...test, ...(request.runnerArgs ?? []), ...(run === null ? [] : ['-run', run]), ...packages,
    ]);
    return {
      argv: first ?? [...test, ...(request.runnerArgs ?? []), './...'],
      ...(rest.length > 0 ? { thenArgv: rest } : {}),
      ...(notes.length > 0 ? { notes } : {}),
      env: { ...request.env },
      // go test prints as a person sees it without -json, which only run-tests reads.
      shownArgv: (argv) => argv.filter((word, i) => i !== 2 || word !== '-json'),
      humanOutput: goHumanOutput,
      cwd: request.root,
      reports: [{ path: request.artifacts.log, parser: 'go-json', hints: goReportHints(request.facts) }],
    };
  },

  /** go's own `go: ...` error lines (a module it cannot download, a go.mod it cannot
   * read), without its progress lines, each once. */
  failureLines(log) {
    const errors = log.split('\n').filter((line) => line.startsWith('go: ') && !GO_PROGRESS.test(line));
    return [...new Set(errors)].slice(0, 5);
  },

  /** A package-level record (a build failure: id = import path) is settled once any
   * test of that package has run, a test's once its subtests have. */
  covers(record, result) {
    if (parseGoTestId(record.id).name === null) return parseGoTestId(result.id).importPath === record.id;
    // A test with subtests is reported as its subtests (`file:line` selects the top-level test).
    return result.id.startsWith(`${record.id}/`);
  },

  /** A failure go printed no `file_test.go:N:` for (an example's wrong output, t.Fail()
   * without a message): the line of its top-level function in the package's _test.go
   * files. A subtest gets its parent function's line. */
  async locate(failure, facts) {
    const { importPath, name: test } = parseGoTestId(failure.id);
    const name = failure.name.split('/')[0] ?? '';
    if (test === null || !GO_TEST_FUNCTION.test(name)) return null; // a package-level entry
    const dir = packageDirOf(importPath, modulePath(facts));
    return dir === null ? null : definitionOf(name, facts, dir);
  },
};

/** What go prints while it fetches modules, which is no error. */
const GO_PROGRESS = /^go: (?:downloading|finding|extracting) /;

/** The functions go test runs: their names are Go identifiers. */
const GO_TEST_FUNCTION = /^(?:Test|Example|Fuzz|Benchmark)\w*$/;

/** What the go-json parser needs beyond the root: the module path, to find a package's
 * directory from its import path. */
export function goReportHints(facts: ProjectFacts): Readonly<Record<string, string>> {
  const module = modulePath(facts);
  return module === null ? {} : { module };
}


/** `func <name>(` at the start of a line in the package's _test.go files, first file
 * by name; the file relative to the project root. */
function definitionOf(name: string, facts: ProjectFacts, dir: string): { file: string; line: number } | null {
  const declaration = new RegExp(`^func ${name}\\(`, 'm');
  for (const file of facts.list(dir).filter((f) => f.endsWith('_test.go')).sort()) {
    const relative = dir === '' ? file : `${dir}/${file}`;
    const text = facts.read(relative) ?? '';
    const at = declaration.exec(text);
    if (at !== null) return { file: relative, line: text.slice(0, at.index).split('\n').length };
  }
  return null;
}

/** Exact reruns. Ids are `<import path> <test name>`, or the import path alone for a
 * package-level entry (a build failure), which reruns its whole package. -run applies
 * to every package of a command, so each package gets its own selection; packages
 * sharing one selection share a command. Each test is one alternative of exact levels,
 * `^TestA$/^x$|^TestB$/^y$`, so no level of one test combines with another's. */
export function rerunCommands(rerun: readonly FailedTestRecord[], module: string | null): GoCommand[] {
  const selections = new Map<string, Set<string> | null>();
  for (const record of rerun) {
    const { importPath: pkg, name } = parseGoTestId(record.id);
    if (pkg === '') continue;
    const current = selections.has(pkg) ? selections.get(pkg) ?? null : new Set<string>();
    if (name === null || current === null) selections.set(pkg, null);
    else selections.set(pkg, current.add(name));
  }
  const commands = new Map<string, { run: string | null; packages: string[] }>();
  // In package order, so the same failures always give the same commands.
  for (const [pkg, tests] of [...selections].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const run = tests === null ? null : [...tests].sort().map(exactTestPattern).join('|');
    const key = run ?? '';
    const command = commands.get(key) ?? { run, packages: [] };
    command.packages.push(packageArgument(pkg, module));
    commands.set(key, command);
  }
  return [...commands.values()];
}

/** `TestTable/wrong_[neg]` → `^TestTable$/^wrong_\[neg\]$`. */
export const exactTestPattern = (name: string): string => name.split('/').map((level) => `^${escapeGoRegex(level)}$`).join('/');

/** A package for the go command line: `./dir` inside the module, else its import path. */
function packageArgument(importPath: string, module: string | null): string {
  if (module === null) return importPath;
  if (importPath === module) return '.';
  return importPath.startsWith(`${module}/`) ? `./${importPath.slice(module.length + 1)}` : importPath;
}
