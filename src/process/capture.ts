import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { HarnessError } from '../model/errors.js';
import { openAppend, openFresh, openRead } from '../store/atomic.js';
import { FileTail } from './file-tail.js';
import { RunLog } from './log.js';
import { OutputCopy } from './output-copy.js';
import { SourceGate } from './source-gate.js';
import type { StartOptions } from './types.js';

/** The file the runner's stdout goes to, open for the runner to append to, for an
 * OutputCopy to append stderr's lines to, and for reading back into the log. */
interface CaptureFile {
  readonly writeFd: number;
  readonly copyFd: number;
  readonly readFd: number;
  /** Its size before this command: an earlier command of the run wrote that part. */
  readonly from: number;
}

/** The runner's output. Its stdout goes straight into a file, with no pipe and no work
 * here per write the runner makes (progress dots, go test -json's events), and the log is
 * read from the file as it grows. stderr stays a pipe whose whole lines are appended to the
 * same file: they never split a line of a report, and a script that writes to /dev/stderr
 * (which opens it anew, truncating a file) cannot clobber it. */
export class Capture {
  /** stderr's lines, appended to the file the runner's stdout goes to. */
  private readonly copy: OutputCopy;
  /** That file, read back into the log; null until the runner started. */
  private tail: FileTail | null = null;

  private constructor(private readonly log: RunLog, private readonly gate: SourceGate, private readonly file: CaptureFile) {
    this.copy = new OutputCopy(file.copyFd);
  }

  /** Opens the log and the file the runner's stdout will go to. Throws a HarnessError
   * (SPAWN_FAILED) naming the one it could not create: nothing is spawned then. */
  static open(options: StartOptions): Capture {
    const gate = new SourceGate();
    let log: RunLog;
    try {
      log = RunLog.open(options.logPath, options.tee ?? null, options.appendLog === true, options.maxLogBytes ?? null, gate);
    } catch (error) {
      const message = `cannot create log ${options.logPath}: ${(error as Error).message}`;
      throw new HarnessError('SPAWN_FAILED', message, { path: options.logPath });
    }
    const scratch = !options.outputCopy;
    const capturePath = options.outputCopy || scratchPath(options.logPath);
    try {
      return new Capture(log, gate, openCaptureFile(capturePath, scratch));
    } catch (error) {
      closeQuietly(log);
      throw new HarnessError('SPAWN_FAILED', `cannot create ${capturePath}: ${(error as Error).message}`, { path: capturePath });
    }
  }

  /** The runner's stdout, for the spawn (which closes it once the runner has its own). */
  get stdoutFd(): number {
    return this.file.writeFd;
  }

  /** Bytes of the runner's output read into the log so far. */
  get bytes(): number {
    return this.log.bytes;
  }

  /** The runner started: read its stdout from the file, and append its stderr's lines to it. */
  follow(stderr: Readable | null): void {
    this.tail = new FileTail(this.file.readFd, this.file.from, (bytes) => this.log.take(bytes), () => {
      this.log.note('the file the runner\'s stdout goes to was truncated while it ran (a process it started opened /dev/stdout for writing?); what was written just before may be missing here');
    });
    this.gate.add(this.tail);
    if (stderr !== null) this.gate.add(stderr);
    this.copy.attach(stderr);
  }

  /** A run-tests line in the log, after everything the runner wrote before it (the output
   * copy and its tail would otherwise hand that on up to a poll later). */
  note(line: string): void {
    this.copy.flush();
    this.tail?.catchUp();
    this.log.note(line);
  }

  /** In order: stderr's last lines into the output copy, the whole file into the log, then
   * the log. Rejects with the first write error, after closing everything. */
  async close(): Promise<void> {
    const copyError = closeQuietly(this.copy);
    if (this.tail !== null) await this.tail.finish();
    else fs.closeSync(this.file.readFd); // the runner never started
    this.log.close();
    if (copyError !== null) throw copyError;
    if (this.tail?.failed) throw this.tail.failed;
  }
}

/** `outputCopy`, a report that is the runner's own output, is kept, and each command
 * appends to it. Any other runner's output goes to a scratch file beside the log, unlinked
 * once open: it is gone when the last descriptor closes, also if run-tests is killed.
 * Either way, what the file already held is not this command's (`from`). */
function openCaptureFile(file: string, scratch: boolean): CaptureFile {
  const fds: number[] = [];
  try {
    // Never through a link: a scratch file is created anew, a report file is appended to.
    const first = scratch ? (f: string) => openFresh(f, { append: true }) : openAppend;
    for (const open of [first, openAppend, openRead]) fds.push(open(file));
    if (scratch) fs.unlinkSync(file);
    const [writeFd = -1, copyFd = -1, readFd = -1] = fds;
    return { writeFd, copyFd, readFd, from: fs.fstatSync(readFd).size };
  } catch (error) {
    for (const fd of fds) fs.closeSync(fd);
    throw error;
  }
}

let scratchFiles = 0;
const scratchPath = (logPath: string): string =>
  path.join(path.dirname(logPath), `.output-${process.pid}-${scratchFiles++}`);

/** Closes it and returns the error that closing threw, if any. */
function closeQuietly(file: { close(): void }): unknown {
  try {
    file.close();
    return null;
  } catch (error) {
    return error;
  }
}
