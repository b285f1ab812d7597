import type { ProgressSink } from './progress.js';

/** `--name`: a plain string matches names containing it; `/…/` is a regular expression. */
export interface NameFilter {
  readonly text: string;
  readonly regex: boolean;
}

/** Where in a file a positional operand points: `file:line`, or pytest's node id
 * `file::Class::test` (`node` is what follows the first `::`). */
export type TestLocator = { readonly line: number } | { readonly node: string };

/** A positional `file:line` or `file::node`: the tests the runner finds there. */
export interface TestLocation {
  /** Absolute, verified to exist inside cwd as files are. */
  readonly file: string;
  readonly at: TestLocator;
  /** The operand as given, for messages. */
  readonly operand: string;
}

/** `--command … --report format:path`: a test command run-tests does not know, with
 * the report it writes. Validated by src/cli/custom.ts. */
export interface CustomCommand {
  /** Split into words without a shell; shell syntax was rejected. */
  readonly argv: readonly string[];
  readonly report: { readonly format: 'junit' | 'tap'; readonly path: string | '-' };
}

/** How many failures a report lists unless --max-failures says otherwise. */
export const DEFAULT_MAX_FAILURES = 50;

/** A file a change touches: its path (relative to the work tree's top in a Change;
 * to the project root where a runner is asked, `../` for one outside it) and how it
 * changed. A rename is a deletion and an addition. */
export interface ChangedFile {
  readonly path: string;
  readonly change: 'added' | 'modified' | 'deleted';
}

/** A change, as git tells it (src/core/change/git-change.ts). */
export interface Change {
  /** The work tree's top directory. */
  readonly top: string;
  /** The commit the change is measured from: HEAD, or the merge base with `ref`; null
   * in a repository without a commit (every file is then added). */
  readonly base: string | null;
  /** HEAD's commit; null without one. */
  readonly head: string | null;
  /** `--changed <ref>` as given; null for the working tree and index against HEAD. */
  readonly ref: string | null;
  /** Relative to `top`, `/`-separated, sorted. */
  readonly files: readonly ChangedFile[];
  /** A digest of base and every changed file's content: the same change, the same digest. */
  readonly tree: string;
}

/** `--shard 2/4`: index is 1-based, 1 <= index <= count. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** A validated request to run tests (see src/cli/options.ts for validation). */
export interface RunRequest {
  /** Absolute invocation directory. */
  readonly cwd: string;
  /** Absolute paths, each verified to exist inside cwd. */
  readonly files: readonly string[];
  /** Positional `file:line` and `file::node` operands (their files are not in `files`
   * unless also given whole). */
  readonly locations?: readonly TestLocation[];
  readonly name: NameFilter | null;
  readonly failedOnly: boolean;
  /** --id: exactly the recorded tests with these ids (empty or absent: none given). */
  readonly ids?: readonly string[];
  /** --cwd was given: the commands the report suggests carry it, so they work from where
   * the caller stands. */
  readonly cwdGiven?: boolean;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  /** Cap on the log's size (--max-log), null for none. */
  readonly maxLogBytes: number | null;
  /** Cap on the failures the report lists (--max-failures), null for none; by default
   * DEFAULT_MAX_FAILURES. last-failures.json keeps them all. */
  readonly maxFailures?: number | null;
  readonly runner: string | null;
  readonly minTests: number;
  readonly allowNoTests: boolean;
  /** --no-cache: results the runner would replay from its own cache are run afresh (go). */
  readonly noCache?: boolean;
  /** `run-tests -- <args>`: arguments appended to the runner's command. */
  readonly runnerArgs?: readonly string[];
  /** Pass the runner's live output through to this stream (--stream). */
  readonly tee: NodeJS.WritableStream | null;
  /** Told of the run's progress and each failure as the reports are read (the live
   * display on a terminal, never with --json). */
  readonly liveCount: ProgressSink | null;
  readonly env: NodeJS.ProcessEnv;
  readonly reportersDir: string;
  /** --command/--report instead of a detected runner; it runs in cwd. */
  readonly custom: CustomCommand | null;
  /** The run's id (store/runs.ts newRunId); made by runTests when not given. */
  readonly runId?: string;
  /** How many run directories each project keeps, this run's included (--keep-runs; default 20). */
  readonly keepRuns?: number;
  /** How many runs' entries each project's history index keeps, this run's included
   * (--keep-history; default 200). */
  readonly keepHistory?: number;
  /** --shard <index>/<count>: run only that part of the selected tests' units. */
  readonly shard?: ShardSpec | null;
  /** --timings <file>: an absolute path to a run-tests JSON report or a JUnit file whose
   * durations balance the shards; absent: the project's own run records. */
  readonly timings?: string | null;
  /** --jobs: how many projects of a run of several run at once (default: the CPUs, at
   * most the number of projects). */
  readonly jobs?: number;
  /** --all-projects: every project found below cwd runs, not only the one at cwd. */
  readonly allProjects?: boolean;
  /** --changed [ref]: run what the change needs (ref null: the working tree and index
   * against HEAD); file operands then limit the change to those paths. */
  readonly changed?: { readonly ref: string | null } | null;
  /** The change --changed reads, once for all the run's projects (set by runTests), or
   * the files --watch saw saved. */
  readonly change?: Change;
  /** --watch: with a change, the units of the recorded failures run too, and first. */
  readonly failuresFirst?: boolean;
  /** Called as each runner starts: work that can overlap the run (loading the renderer). */
  readonly onRunnerStarted?: () => void;
}

/** Where Ctrl-C (or SIGTERM) reaches the run: the CLI raises it, the run forwards it. */
export class Interrupts {
  signal: NodeJS.Signals | null = null;
  private readonly listeners = new Set<(signal: NodeJS.Signals) => void>();

  raise(signal: NodeJS.Signals): void {
    this.signal = signal;
    for (const listener of this.listeners) listener(signal);
  }

  /** Calls `listener` on the next interrupt (at once if one came already); returns an unsubscribe. */
  on(listener: (signal: NodeJS.Signals) => void): () => void {
    if (this.signal) listener(this.signal);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
