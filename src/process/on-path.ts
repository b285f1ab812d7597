import fs from 'node:fs';
import path from 'node:path';

/** Whether `executable` would be found by a spawn with this environment: a path is
 * checked as is, a bare name in each directory of PATH. */
export function onPath(executable: string, env: NodeJS.ProcessEnv): boolean {
  const candidates = executable.includes('/')
    ? [executable]
    : (env.PATH ?? '').split(path.delimiter).filter((dir) => dir !== '').map((dir) => path.join(dir, executable));
  return candidates.some((file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
}
