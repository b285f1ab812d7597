import fs from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { ReportSource } from '../runners/types.js';
import type { ReportParser } from '../parsers/stream.js';
import { loadParser } from '../runners/parsers.js';
import { everyPoll } from '../process/index.js';
import type { RunReport } from '../model/report.js';
import type { ParsedReport } from '../model/results.js';
import type { ProgressSink } from '../model/progress.js';
import { ProgressWatch } from './progress.js';

/** A read's text stays below V8's large-object size (128 KiB), with the line carried
 * over from the read before: each large string is a memory mapping of its own, and
 * reading a 5 MB go report 256 KiB at a time took ~1.4x as long as 64 KiB at a time. */
const READ_BYTES = 64 * 1024;

export interface ReadReports {
  /** The first complete report, else the one with the most results; null if none is usable. */
  readonly report: ParsedReport | null;
  readonly warnings: readonly string[];
  /** Why there is no report, when there is none. */
  readonly error: RunReport['error'];
}

/** One report file followed as it grows: new bytes go to its parser, never into memory whole. */
class FollowedFile {
  private fd: number | null = null;
  private offset = 0;
  private readonly decoder = new StringDecoder('utf8');
  private readonly buffer = Buffer.alloc(READ_BYTES);

  constructor(readonly source: ReportSource, readonly parser: ReportParser) {}

  /** Feeds what was appended since the last call; false while the file does not exist. */
  drain(): boolean {
    if (this.fd === null) {
      try {
        this.fd = fs.openSync(this.source.path, 'r');
      } catch {
        return false;
      }
    }
    for (;;) {
      const read = fs.readSync(this.fd, this.buffer, 0, READ_BYTES, this.offset);
      if (read === 0) return true;
      this.offset += read;
      this.parser.push(this.decoder.write(this.buffer.subarray(0, read)));
    }
  }

  get bytes(): number {
    return this.offset;
  }

  finish(): ParsedReport | null {
    const exists = this.drain();
    if (this.fd !== null) fs.closeSync(this.fd);
    if (!exists || this.offset === 0) return null;
    this.parser.push(this.decoder.end());
    return this.parser.end();
  }
}

export interface ReportFollower {
  /** Stops following, reads what is left, and picks the report to trust. */
  finish(): ReadReports;
}

/** Follows the runner's reports while it runs, so parsing overlaps the run; `progress` is
 * told after each look what has been read (the live display). */
export async function followReports(
  sources: readonly ReportSource[],
  root: string,
  progress: ProgressSink | null,
): Promise<ReportFollower> {
  const files = await Promise.all(sources.map(async (source) =>
    new FollowedFile(source, (await loadParser(source.parser))({ root, ...(source.hints ? { hints: source.hints } : {}) }))));
  const watch = progress === null ? null : new ProgressWatch(progress);
  const parsers = files.map((f) => f.parser);
  const poll = () => {
    for (const file of files) file.drain();
    watch?.look(parsers);
  };
  const stopPolling = everyPoll(poll);
  return {
    finish() {
      stopPolling();
      // The last results are shown before the display ends; reading them again below is a no-op.
      if (watch !== null) {
        safely(() => (poll(), null));
        progress?.end();
      }
      return choose(files.map((file) => ({ file, report: safely(() => file.finish()) })));
    },
  };
}

function safely(parse: () => ParsedReport | null): ParsedReport | Error | null {
  try {
    return parse();
  } catch (error) {
    return error as Error;
  }
}

function choose(results: readonly { file: FollowedFile; report: ParsedReport | Error | null }[]): ReadReports {
  const parsed = results.flatMap((r) => (r.report instanceof Error || r.report === null ? [] : [r.report]));
  // What was running when the run stopped is known to the report that says when tests
  // start (rspec's events, not its JSON): kept whichever report is chosen.
  const running = parsed.find((r) => r.running !== undefined)?.running;
  const withRunning = (report: ParsedReport): ParsedReport => (report.running !== undefined || running === undefined ? report : { ...report, running });
  const complete = parsed.find((r) => r.complete);
  if (complete) return { report: withRunning(complete), warnings: complete.warnings, error: null };
  const best = [...parsed].sort((a, b) => b.tests.length - a.tests.length)[0] ?? null;
  if (best && best.tests.length > 0) return { report: withRunning(best), warnings: best.warnings, error: null };
  const problems = results.map(({ file, report }) => {
    if (report instanceof Error) return `${file.source.path} could not be parsed: ${report.message}`;
    if (report === null) return `${file.source.path} is ${file.bytes === 0 && fsExists(file.source.path) ? 'empty' : 'missing'}`;
    return `${file.source.path} holds no results`;
  });
  const unparseable = results.some((r) => r.report instanceof Error) || parsed.length > 0;
  return {
    report: best,
    warnings: parsed.flatMap((p) => p.warnings),
    error: { code: unparseable ? 'REPORT_UNPARSEABLE' : 'REPORT_MISSING', message: problems.join('; ') },
  };
}

const fsExists = (file: string): boolean => fs.existsSync(file);
