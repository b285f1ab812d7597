import fs from 'node:fs/promises';
import path from 'node:path';

/** Writes via a temp file in the same directory, then renames: readers see the old
 * file or the new one, never half of either. */
export async function writeFileAtomic(file: string, content: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    await fs.writeFile(temp, content);
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

export const writeJsonAtomic = (file: string, value: unknown): Promise<void> =>
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
