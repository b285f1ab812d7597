import fs from 'node:fs';
import { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import type { RunReport } from '../model/report.js';
import { flakyPlaces, githubContext, renderAnnotations, renderStepSummary, runnerAnnotation } from '../render/github.js';

/** A workflow command longer than this is not held whole; it is dropped. */
const MAX_COMMAND_CHARS = 1024 * 1024;
/** At most this many of the runner's `::error` lines are held for the end of the run
 * (GitHub shows 10 error annotations of a step anyway); more are passed on as they come. */
const MAX_HELD = 1000;
/** What is kept of a partial line that is not to be passed on. */
const NOT_A_COMMAND = '\u0000';

/** Under GitHub Actions (GITHUB_ACTIONS=true), run-tests speaks to the job: annotations,
 * the runner's own workflow commands, the step summary. GitHub reads workflow commands
 * from a step's stdout and its stderr alike (actions/runner gives each its own
 * OutputManager), so with --json they go to stderr and stdout stays one JSON document. */
export interface GithubActions {
  /** Where workflow commands go: stdout, or stderr under --json. */
  readonly out: NodeJS.WritableStream;
  /** A tee for the runner's output that passes on its lines starting with `::` (vitest's
   * annotations), which would otherwise stay in the log; with --stream, all of it to stderr.
   * Its `::error` lines are held until the run ends: a test that fails and then passes on
   * a retry is flaky, never an error, and a retry repeats the same lines. */
  tee(stream: boolean): Writable;
  /** The annotations of a finished run, and its summary appended to $GITHUB_STEP_SUMMARY. */
  finish(report: RunReport): Promise<void>;
}

export function githubActions(env: NodeJS.ProcessEnv, json: boolean): GithubActions | null {
  if (env['GITHUB_ACTIONS'] !== 'true') return null;
  const out = json ? process.stderr : process.stdout;
  const ctx = githubContext(env);
  const annotated = new Set<string>();
  const held = new Set<string>();
  const seen = (line: string): void => {
    const key = runnerAnnotation(line, ctx);
    if (key !== null) annotated.add(key);
  };
  return {
    out,
    tee: (stream) => (stream ? commandLines(process.stderr, seen, true) : commandLines(out, seen, false, held)),
    finish: async (report) => {
      // The runner's annotations of tests that turned out flaky go: ours warn of them.
      const flaky = flakyPlaces(report);
      const kept = [...held].filter((line) => !flaky.has(runnerAnnotation(line, ctx) ?? ''));
      await write(out, kept.map((line) => `${line}\n`).join('') + renderAnnotations(report, ctx, annotated));
      const summary = env['GITHUB_STEP_SUMMARY'];
      if (summary) appendStepSummary(summary, renderStepSummary(report, ctx));
    },
  };
}

/** The lines of a byte stream that start with `::`, written to `out` as they complete
 * and each shown to `seen`; with `all`, every byte is written as it comes. With `held`,
 * `::error` lines are put there (once each, up to MAX_HELD) rather than written. */
export function commandLines(out: NodeJS.WritableStream, seen: (line: string) => void = () => undefined, all = false, held: Set<string> | null = null): Writable {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const hold = (line: string): boolean => {
    if (held === null || !line.startsWith('::error') || (!held.has(line) && held.size >= MAX_HELD)) return false;
    held.add(line);
    return true;
  };
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop() ?? '';
      // A line that is no command (or too long a one) need not be held, only known as such.
      if ((partial.length > 2 && !partial.startsWith('::')) || partial.length > MAX_COMMAND_CHARS) partial = NOT_A_COMMAND;
      const commands = lines.filter((line) => line.startsWith('::')).map((line) => line.replace(/\r$/, ''));
      commands.forEach(seen);
      const text = all ? chunk : commands.filter((line) => !hold(line)).map((line) => `${line}\n`).join('');
      if (text.length === 0 || out.write(text)) done();
      else out.once('drain', () => done());
    },
  });
}

const write = (out: NodeJS.WritableStream, text: string): Promise<void> =>
  new Promise((resolve) => (text === '' ? resolve() : out.write(text, () => resolve())));

/** GitHub creates the file and owns it: it is appended to, never created, and never
 * through a link (O_NOFOLLOW). A failure is a warning: the exit code stays the run's. */
function appendStepSummary(file: string, markdown: string): void {
  const { O_WRONLY, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK);
    if (!fs.fstatSync(fd).isFile()) throw new Error('not a regular file');
    fs.writeSync(fd, markdown);
  } catch (error) {
    process.stderr.write(`run-tests: warning: the step summary was not written to ${file}: ${(error as Error).message}\n`);
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}
