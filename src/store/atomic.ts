import fs from 'node:fs';
import path from 'node:path';

/** The write primitives for every file run-tests puts in `.run-tests/` (and --junit).
 * None of them writes through a link: a project can ship a `.run-tests/last-test.log`
 * that points at a file of the user's, and writing through it would change that file. */
const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_RDONLY, O_WRONLY } = fs.constants;

/** Writes via a temp file created exclusively in the same directory (never an existing
 * file, never through a link), then renames it over `file`: a link or a hard link there
 * is replaced, never followed, and readers see the old file or the new one, never half
 * of either. Synchronous: it runs after the runner has exited, where each asynchronous
 * step only added a thread-pool round trip (~4 ms a file, measured) between the
 * runner's end and the user's answer. */
export function writeFileAtomic(file: string, content: string | Iterable<string>): void {
  // Unpredictable, so a file planted under the name cannot make the write fail (O_EXCL would refuse it).
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    const fd = fs.openSync(temp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
    try {
      // In chunks when it comes in chunks: a large JUnit file is never one string.
      if (typeof content === 'string') fs.writeFileSync(fd, content);
      else for (const chunk of content) fs.writeFileSync(fd, chunk);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') removeFile(temp);
    throw error;
  }
}

export const writeJsonAtomic = (file: string, value: unknown): void =>
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);

/** Creates `file` anew for writing: whatever has its name (a link, a hard link to a file
 * elsewhere, a named pipe) is unlinked first, which removes the name and never touches
 * what it pointed at; then the file is created exclusively. `append`: every write goes
 * to the end, also after someone truncated the file (a runner's stdout). */
export function openFresh(file: string, { append = false } = {}): number {
  removeFile(file);
  return fs.openSync(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | (append ? O_APPEND : 0), 0o666);
}

/** Opens `file` to append to, creating it if missing. A link is refused (ELOOP) rather
 * than followed, and so is anything but a regular file with one name: appending to a
 * hard link would change a file elsewhere. O_NONBLOCK: opening a named pipe must not
 * wait for a reader (it is refused once open); it changes nothing for a regular file. */
export function openAppend(file: string): number {
  const fd = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK, 0o666);
  refuseUnlessPlain(fd, file);
  return fd;
}

/** Opens `file` to read, never through a link, and only when it is a regular file. */
export function openRead(file: string): number {
  const fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  refuseUnlessPlain(fd, file, false);
  return fd;
}

function refuseUnlessPlain(fd: number, file: string, oneName = true): void {
  const stats = fs.fstatSync(fd);
  const why = !stats.isFile() ? 'not a regular file' : oneName && stats.nlink > 1 ? `a hard link (${stats.nlink} names)` : null;
  if (why === null) return;
  fs.closeSync(fd);
  throw Object.assign(new Error(`${file} is ${why}; run-tests writes only files of its own`), { code: 'EPERM', path: file });
}

/** Removes a file if it is there; a link is removed itself, never what it points at. Not
 * fs.rmSync: its first use loads node's rimraf (~0.8 ms), and this runs before the
 * runner starts. */
export function removeFile(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
