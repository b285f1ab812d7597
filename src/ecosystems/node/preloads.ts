/** The files node itself loads before a test file: `--require`, `--import` and `--loader`
 * in the script's node flags or in NODE_OPTIONS. A package's are below node_modules and
 * are not the project's; a module name that does not resolve is left out (node would fail
 * on it in every run, whatever the plan). */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { shellWords } from '../../project/command-line.js';

const PRELOAD = new Set(['--require', '-r', '--import', '--loader', '--experimental-loader']);

export function preloadedFiles(root: string, nodeArgs: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const flags = [...nodeArgs, ...(shellWords(env.NODE_OPTIONS ?? '') ?? [])];
  const modules: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    const flag = flags[i] ?? '';
    const eq = flag.indexOf('=');
    if (eq !== -1 && PRELOAD.has(flag.slice(0, eq))) modules.push(flag.slice(eq + 1));
    else if (PRELOAD.has(flag) && flags[i + 1] !== undefined) modules.push(flags[(i += 1)] ?? '');
  }
  return modules.map((mod) => located(root, mod)).filter((file): file is string => file !== null && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.relative(root, file).split(path.sep).join('/'));
}

function located(root: string, mod: string): string | null {
  if (mod.startsWith('file:')) return new URL(mod).pathname;
  if (/^\.{0,2}\//.test(mod)) return path.resolve(root, mod);
  try {
    return createRequire(path.join(root, 'noop.js')).resolve(mod);
  } catch {
    return fs.existsSync(path.join(root, mod)) ? path.join(root, mod) : null;
  }
}
