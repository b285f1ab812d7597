import fs from 'node:fs';
import path from 'node:path';

/** Writes via a temp file in the same directory, then renames: readers see the old
 * file or the new one, never half of either. Synchronous: it runs after the runner has
 * exited, where each asynchronous step only added a thread-pool round trip (~4 ms a
 * file, measured) between the runner's end and the user's answer. */
export function writeFileAtomic(file: string, content: string): void {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    fs.writeFileSync(temp, content);
    fs.renameSync(temp, file);
  } catch (error) {
    removeFile(temp);
    throw error;
  }
}

export const writeJsonAtomic = (file: string, value: unknown): void =>
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);

/** Removes a file if it is there. Not fs.rmSync: its first use loads node's rimraf
 * (~0.8 ms), and this runs before the runner starts. */
export function removeFile(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
