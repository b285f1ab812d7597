import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's root (where package.json and reporters/ are), found from the running
 * file: the same from src/ under tests and from the bundle in dist/. */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'reporters'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`run-tests: cannot find its package root above ${from}`);
  }
}
