// What run.mjs, shards.mjs and changed.mjs share: running an argv in a project's checkout, the list,
// and writing a generated table into a doc. Every command is an argv array: nothing here
// goes through a shell.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
export const runTests = path.join(repoRoot, 'bin', 'run-tests.js');
const RUN_TIMEOUT_MS = 10 * 60 * 1000;

export const readProjects = () => JSON.parse(fs.readFileSync(path.join(here, 'projects.json'), 'utf8')).projects;

/** Runs one argv in `cwd`, with the project's `path` first on PATH and its `env` set
 * (`<checkout>` in a value stands for the project's checkout: GOPATH mode needs it). */
export function run(argv, cwd, project, checkout) {
  const own = Object.fromEntries(Object.entries(project.env ?? {}).map(([name, value]) => [name, value.replaceAll('<checkout>', checkout)]));
  const env = { ...process.env, ...own, PATH: [...(project.path ?? []), process.env.PATH].join(path.delimiter) };
  return spawnSync(argv[0], argv.slice(1), { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: RUN_TIMEOUT_MS });
}

/** Runs the project's offline `setup` steps: null, or what failed. */
export function setup(project, cwd, checkout) {
  for (const argv of project.setup) {
    const result = run(argv, cwd, project, checkout);
    if (result.status !== 0) return `setup failed: \`${argv.join(' ')}\` exited ${result.status ?? result.signal}`;
  }
  return null;
}

/** The checkout of a project in the checkouts directory, and where run-tests runs in it. */
export function checkoutOf(project, dir) {
  const checkout = path.join(dir, project.id);
  return { checkout, cwd: path.join(checkout, project.subdirectory ?? '') };
}

/** `run-tests <args> --json` in a checkout: its report, or an error text. */
export function runJson(args, project, cwd, checkout) {
  const started = Date.now();
  const result = run([process.execPath, runTests, ...args, '--json'], cwd, project, checkout);
  const seconds = Math.round((Date.now() - started) / 1000);
  try {
    return { report: JSON.parse(result.stdout), exit: result.status, seconds };
  } catch {
    const stderr = result.stderr.trim().split('\n').pop() ?? '';
    return { problem: `no JSON on stdout (exit ${result.status ?? result.signal}): ${stderr}`, exit: result.status, stderr, seconds };
  }
}

export const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

export function runTestsCommit() {
  const result = run(['git', 'rev-parse', '--short=10', 'HEAD'], repoRoot, {}, repoRoot);
  const dirty = run(['git', 'status', '--porcelain', '--', 'src', 'reporters'], repoRoot, {}, repoRoot).stdout.trim() !== '';
  return result.status === 0 ? `${result.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}` : 'unknown';
}

/** Replaces the generated text in the doc between `<!-- <marker>:begin -->` and
 * `<!-- <marker>:end -->`, keeping the prose around it. */
export function writeSection(file, text, marker = 'realworld') {
  const begin = `<!-- ${marker}:begin -->`;
  const end = `<!-- ${marker}:end -->`;
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `# Real projects\n\n${begin}\n${end}\n`;
  const from = old.indexOf(begin);
  const to = old.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${begin} ... ${end} markers`);
  fs.writeFileSync(file, `${old.slice(0, from + begin.length)}\n${text}${old.slice(to)}`);
}

/** The command line of run.mjs and changed.mjs: `<checkouts-dir> [--setup] [--only id,id]
 * [--write <file>]`; `script` names the one in the usage message. */
export function checkArgs(argv, script) {
  const opts = { dir: null, setup: false, only: null, write: null };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--setup') opts.setup = true;
    else if (arg === '--only') opts.only = new Set(argv[++i].split(','));
    else if (arg === '--write') opts.write = argv[++i];
    else if (opts.dir === null && !arg.startsWith('-')) opts.dir = path.resolve(arg);
    else throw new Error(`unknown argument: ${arg}`);
  }
  if (opts.dir === null) throw new Error(`usage: ${script} <checkouts-dir> [--setup] [--only id,id] [--write <file>]`);
  return opts;
}
