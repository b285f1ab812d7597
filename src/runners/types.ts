import type { ArtifactPaths } from '../store/artifacts.js';
import type { FailedTest, FailedTestRecord, TestResult } from '../model/results.js';
import type { ProjectFacts } from '../project/facts.js';
import type { NameFilter, TestLocator } from '../model/request.js';
import type { ParserFactory } from '../parsers/stream.js';

export interface PlanRequest {
  readonly root: string;
  readonly facts: ProjectFacts;
  /** Relative to root, `/`-separated. Empty means the whole suite. */
  readonly files: readonly string[];
  readonly name: NameFilter | null;
  /** With --failed-only: exactly these tests, never the whole suite. */
  readonly rerun: readonly FailedTestRecord[] | null;
  readonly artifacts: ArtifactPaths;
  /** The environment run-tests itself was started with. */
  readonly env: NodeJS.ProcessEnv;
  /** Absolute path of this package's reporters/ directory. */
  readonly reportersDir: string;
  /** --no-cache: run afresh what the runner would replay from its own result cache. A
   * runner without one ignores it. */
  readonly noCache?: boolean;
  /** `run-tests -- <args>`: arguments for the runner itself, checked by the runner's
   * refusedArgument, placed by its plan where the runner reads them. */
  readonly runnerArgs?: readonly string[];
  /** --shard, for a runner whose ShardSupport selects `units`: exactly these units (names
   * from its `units`), and `files` is empty. Absent otherwise. */
  readonly units?: readonly string[];
  /** Operands of the runner's own (Runner.testsAt's `operands`) for `file:line`,
   * added to the command as given, after the files. */
  readonly at?: readonly string[];
}

/** The tests at a `file:line` (or `file::node`), as the runner selects them: operands its
 * command takes as given (rspec's `spec/x_spec.rb:12`, pytest's node id), or exact tests,
 * run and checked by name and file as a rerun's are. */
export type LocatedTests = { readonly operands: readonly string[] } | { readonly tests: readonly FailedTestRecord[] };

/** A parser's id: a shared format's (src/runners/parsers.ts) or one a runner declares
 * in its `parsers`. Stored in a run's record, so an id keeps its meaning. */
export type ParserId = string;

/** A parser of one format, loaded on demand so a command only imports the parser it uses. */
export interface ParserEntry {
  readonly load: () => Promise<ParserFactory>;
  /** What the parser needs to know of the project beyond its root (go's module path),
   * for a report read by `run-tests parse`; a run's plan gives it in ReportSource.hints. */
  readonly hints?: (facts: ProjectFacts) => Readonly<Record<string, string>>;
}

/** A structured report the runner writes, and the parser that reads it. */
export interface ReportSource {
  readonly path: string;
  readonly parser: ParserId;
  /** What the parser needs to know beyond the project root (e.g. a Go module path). */
  readonly hints?: Readonly<Record<string, string>>;
}

export interface Invocation {
  readonly argv: readonly string[];
  /** Commands run after argv, one after another, with the same cwd and env and their
   * output appended to the same log: e.g. one `go test` per package for an exact rerun.
   * The run's exit status is the first non-zero one. */
  readonly thenArgv?: readonly (readonly string[])[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Why the command differs from what the project's own script runs, e.g. "scripts.test
   * is a shell command line; run-tests runs jest directly". Shown with the reason. */
  readonly notes?: readonly string[];
  /** Environment variables run-tests set that belong in the displayed command. */
  readonly shownEnv?: readonly string[];
  /** How each command is displayed, when argv wraps the runner in a launcher of ours:
   * the runner's own command, as a person would type it. */
  readonly shownArgv?: (argv: readonly string[]) => readonly string[];
  /** How the runner's output reads to a person, where it prints a format for machines
 * (go test -json's events): a new mapper for each run, from one line of its output
 * (stdout or stderr, without the newline) to what the runner would have printed in its
 * place ('' for nothing). --stream shows that; the log keeps the output as it came. */
  readonly humanOutput?: () => (line: string) => string;
  /** Whether the runner reads this root-relative form of a path in argv as that path;
   * absent: any form not starting with `-` does. For runners that tell paths by their
   * shape (bin/rails test: `dir/file` only): the displayed command keeps the others as run. */
  readonly readsAsPath?: (relative: string) => boolean;
  /** Exit codes by which the runner says it found no tests (pytest: 5): with a clean
   * report that executed nothing, the run is `no_tests`, not an error. */
  readonly noTestsExitCodes?: readonly number[];
  /** A report that is the runner's own output: its stdout and stderr are also appended
   * here, whole lines at a time (go test -json prints its events on stdout). */
  readonly captureOutput?: string;
  /** Executables a launcher will start, checked on the child's PATH before spawning so
   * a missing one is RUNNER_MISSING with the install hint, not a missing report. */
  readonly requires?: readonly string[];
  /** In order of preference: the first one that parses as complete wins; otherwise the
   * one with the most results is used, marked incomplete. Deleted before the run, and
   * followed while the runner writes them (the live count comes from them). */
  readonly reports: readonly ReportSource[];
}

/** A unit --shard deals out: what the runner selects exactly (a test file; go's package
 * directory; cargo's target file), by its path relative to the project root, and its
 * size in bytes, which balances the parts when no run recorded its duration. */
export interface ShardUnit {
  readonly name: string;
  readonly bytes: number;
}

export interface UnitsRequest {
  readonly root: string;
  readonly facts: ProjectFacts;
  /** The selection, as PlanRequest.files: relative, `/`-separated; empty: the whole suite. */
  readonly files: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** Absolute path of this package's reporters/ directory, as PlanRequest's: where the
   * listers run in the runner's own runtime live (rspec, minitest, rails, pytest,
   * unittest need it, and throw without it). */
  readonly reportersDir?: string;
  /** `run-tests -- <args>`, as PlanRequest's: options that change which files the runner
   * runs (rspec's --pattern, pytest's --ignore) change the units too. */
  readonly runnerArgs?: readonly string[];
}

/** How --shard splits a runner's suite into units it can select exactly. */
export interface ShardSupport {
  /** `files`: the units are test files, and a part is planned as PlanRequest.files.
   * `units`: the plan reads PlanRequest.units (go: a directory given as a file would be
   * every package below it). */
  readonly selects: 'files' | 'units';
  /** Every unit a run of request.files would execute, each once, sorted by name. May
   * run the runner's own listing (`go list`), as an argv array, never a shell. Throws a
   * HarnessError when it cannot tell. */
  units(request: UnitsRequest): Promise<readonly ShardUnit[]>;
  /** The unit a test (a result or a recorded failure) belongs to, as `units` names it;
   * null when unknown. Absent: the test's file. `facts` are the project's: go needs its
   * module path to place a package's import path, cargo its manifests to find a target's file. */
  unitOf?(test: Pick<TestResult, 'id' | 'name' | 'file' | 'suite'>, facts: ProjectFacts): string | null;
}

export type { ChangedFile } from '../model/request.js';
import type { ChangedFile } from '../model/request.js';

export interface AffectedRequest extends UnitsRequest {
  /** The change's files. None inside the project is deleted (a deletion there is the
   * whole suite, decided before the runner is asked). Files outside the project start
   * with `../`, and are given (deleted ones too) only to a graph whose `outside` says it
   * places them. */
  readonly changed: readonly ChangedFile[];
  /** Every unit of the whole suite, as ShardSupport.units lists them. */
  readonly units: readonly ShardUnit[];
}

/** A unit the change can break, and why (`imports src/a.ts`, `same package`, ...). */
export interface SelectedUnit {
  readonly unit: string;
  readonly reasons: readonly string[];
}

/** What a change needs: some units (none when no unit depends on a changed file), or
 * the whole suite, with the reason, whenever the runner cannot place a file for certain
 * (a config file, a lockfile, a file of a kind it does not know, a dynamic import, a
 * graph tool that failed). Wider than needed is allowed; narrower never. */
export type AffectedUnits =
  | { readonly units: readonly SelectedUnit[]; readonly wholeSuite?: undefined }
  | { readonly wholeSuite: string };

/** How a runner maps a change to the units its tests can break, from its own or its
 * language's dependency facts (docs/changed.md). A changed file that is itself a unit is
 * selected by the core (`changed test file`); the runner adds what depends on the rest. */
export interface ChangeSupport {
  affected(request: AffectedRequest): Promise<AffectedUnits>;
  /** The graph places files outside the project (a go module replaced by `../lib`, a cargo
   * path dependency, a JavaScript import of `../shared`): it is asked about a change there
   * too. Absent: a change outside the project is not this project's. */
  readonly outside?: boolean;
}

export interface Runner {
  readonly id: string;
  /** Files whose presence makes a directory a project root for this ecosystem. */
  readonly markers: readonly string[];
  /** What detection looks for, for the "no runner" message. */
  readonly lookingFor: string;
  /** What detection saw in this project instead, for the "no runner" message (e.g. a
   * scripts.test that runs no runner it knows); null when it has nothing to add. */
  unmatched?(facts: ProjectFacts): string | null;
  /** The parsers of the reports this runner writes, by id (ids are global: the runner's
   * own id for its injected reporter's events). */
  readonly parsers?: Readonly<Record<ParserId, ParserEntry>>;
  /** What to install when the runner's executable is missing. */
  readonly installHint: string;
  /** Pure: a human-readable reason when this runner applies, else null. */
  detect(facts: ProjectFacts): string | null;
  /** Pure: the command to run. Throws a USAGE HarnessError for a request it cannot honour. */
  plan(request: PlanRequest): Invocation;
  /** Whether a result of this run speaks for a recorded failure with another id (a
   * package-level build failure, say, is settled once a test of that package ran).
   * Same ids, and file-level records (id = file) by a result in that file, always are. */
  covers?(record: FailedTestRecord, result: TestResult): boolean;
  /** How a rerun knows the test that ran is the recorded one. By default by its name and
   * its file (an id may be positional: rspec's `x_spec.rb[1:2]` is whichever example is
   * second). `name-and-id`: the runner's ids name the test (go's `<package> <name>`), and
   * a failure's `file` is where it failed, which moves between runs. */
  readonly identity?: 'name-and-file' | 'name-and-id';
  /** Pure: the runner's own first error lines in the start of its log (a dependency it
   * cannot resolve, a task it does not know), quoted when it failed before running any
   * test; empty when it said nothing recognisable (the end of the log is quoted then). */
  failureLines?(log: string): readonly string[];
  /** Where a failure the report gave no line for is defined, read from the project's
   * sources (a go example's wrong output carries no `file_test.go:N:`, a Rust test that
   * returned `Err` no location at all); null if unknown. The place found replaces the
   * failure's file, if the report gave one. Called after the run, for those failures only. */
  locate?(failure: FailedTest, facts: ProjectFacts): Promise<{ readonly file: string; readonly line: number } | null>;
  /** Pure: whether the runner's own filter for a plain-text `--name` selects a test it
   * reported, matched exactly as the runner matches it. A `--name` run that reports a test
   * it does not select lost its filter (rspec's run_all_when_everything_filtered) and is
   * never `passed`. Absent where run-tests cannot tell exactly. */
  selectedByName?(text: string, test: TestResult): boolean;
  /** Pure: `run-tests -- <args>`: a message naming the first argument that cannot be
   * combined with the run (it replaces or disables the injected reporter, or makes the
   * runner report tests it did not run), else null. Absent: the runner takes none, and
   * its plan ignores PlanRequest.runnerArgs. */
  refusedArgument?(args: readonly string[]): string | null;
  /** Pure: the tests at a line of `file` (root-relative), or at pytest's node id. Throws
   * a USAGE HarnessError, saying why, when nothing there can be selected. Absent: the
   * runner cannot select by line (exit 2). */
  testsAt?(file: string, at: TestLocator, facts: ProjectFacts): LocatedTests;
  /** --shard: absent, the runner cannot be sharded (exit 2). */
  readonly shard?: ShardSupport;
  /** `run-tests plan`, `--changed`: absent, any change is the whole suite. Its units are
   * the shard's, and run as a shard's are. */
  readonly changes?: ChangeSupport;
}
