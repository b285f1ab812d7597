/** `run-tests plan` for the Python runners (pytest, unittest): the import graph of the
 * test modules, read by reporters/python/import_graph.py with the project's own python
 * and its `ast` (the language's parser; no project code runs), then the units it selects
 * (python-affected.ts). What the graph cannot place is the whole suite, with why. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../model/errors.js';
import { lastLines } from '../parsers/fields.js';
import { runListing } from '../process/listing.js';
import type { AffectedRequest, AffectedUnits } from '../runners/types.js';
import { affectedByImports, conftestsOf, wholeSuiteFile, type ImportGraph } from './python-affected.js';
import { reportersDir } from './listed-units.js';
import type { ProjectFacts } from '../project/facts.js';
import { virtualenvPython } from './python.js';

export interface PythonGraphOptions {
  /** The interpreter that reads the graph: the project's, as its runner starts it. */
  readonly python: string;
  /** Directories absolute imports are resolved against, relative to the root: the root,
   * `src/`, the project's PYTHONPATH and pytest's `pythonpath`, unittest's top level. */
  readonly roots: readonly string[];
  /** pytest: conftest.py files load for the units below them. */
  readonly conftests: boolean;
  /** Modules loaded before every test (pytest's `-p name`). */
  readonly plugins: readonly string[];
  /** Entry-point groups whose modules load before every test (pytest11). */
  readonly entryPoints: readonly string[];
}

/** The interpreter the project's runner starts: its virtualenv's, else `python3`. */
export function projectPython(root: string, facts: ProjectFacts): string {
  const venv = virtualenvPython(facts);
  return venv === null ? 'python3' : path.join(root, venv);
}

/** PYTHONPATH's directories, relative to the root (`../lib` outside it). */
export const pythonPathDirs = (root: string, env: NodeJS.ProcessEnv): string[] =>
  (env.PYTHONPATH ?? '').split(path.delimiter).filter((p) => p !== '').map((p) => path.relative(root, path.resolve(root, p)).split(path.sep).join('/') || '.');

/** The graph's time: it parses each module once, far below a listing's. */
const GRAPH_TIMEOUT_MS = 60_000;

/** The units a change can break: a file that alone is the whole suite (a config file,
 * a root conftest.py, a file of another kind) is decided before any python starts. */
export async function pythonAffected(request: AffectedRequest, options: PythonGraphOptions): Promise<AffectedUnits> {
  const changed = request.changed.map((file) => file.path);
  const roots = [...new Set(options.roots.map((r) => r.replace(/\/$/, '') || '.'))];
  for (const file of changed) {
    const whole = wholeSuiteFile(file, { roots, conftests: options.conftests });
    if (whole !== null) return { wholeSuite: whole };
  }
  const units = request.units.map((unit) => unit.name);
  const conftests = options.conftests ? conftestsOf(units, (file) => request.facts.exists(file)) : [];
  const graph = await readImportGraph({ root: request.root, env: request.env, reportersDir: reportersDir(request), python: options.python }, {
    roots: roots.filter((r) => !r.startsWith('../')),
    entries: [...units, ...conftests],
    parse: changed.filter((file) => file.endsWith('.py') && !file.startsWith('../')),
    plugins: options.plugins,
    entry_points: options.entryPoints,
  });
  return affectedByImports({ changed, units, roots, conftests: options.conftests }, graph);
}

/** What reporters/python/import_graph.py is given (its docstring says what each is). */
export interface GraphInput {
  readonly roots: readonly string[];
  readonly entries: readonly string[];
  readonly parse: readonly string[];
  readonly plugins: readonly string[];
  readonly entry_points: readonly string[];
}

export interface GraphRun {
  readonly root: string;
  readonly env: NodeJS.ProcessEnv;
  readonly reportersDir: string;
  readonly python: string;
}

/** The graph, as the script reads it in `run.python`; a RUNNER_FAILED error when it fails. */
export async function readImportGraph(run: GraphRun, input: GraphInput): Promise<ImportGraph> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-graph-'));
  const given = path.join(dir, 'input.json');
  const argv = [run.python, path.join(run.reportersDir, 'python', 'import_graph.py'), given];
  try {
    fs.writeFileSync(given, JSON.stringify({ root: run.root, ...input }));
    const outcome = await runListing({ argv, cwd: run.root, env: run.env, timeoutMs: GRAPH_TIMEOUT_MS });
    const graph = outcome.code === 0 ? parseGraph(outcome.stdout) : null;
    if (graph !== null) return graph;
    const ended = outcome.code === null ? `signal ${outcome.signal ?? '?'}` : `exit ${outcome.code}`;
    const said = lastLines(outcome.output, 10).text;
    throw new HarnessError('RUNNER_FAILED', `the import graph (reporters/python/import_graph.py) failed (${ended})${said === '' ? '' : `:\n${said}`}`, { command: argv.join(' ') });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The script's answer, or null when it is not one. */
export function parseGraph(text: string): ImportGraph | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const { modules, problems, preloaded } = (parsed ?? {}) as Partial<Record<keyof ImportGraph, unknown>>;
  const strings = (value: unknown): boolean => Array.isArray(value) && value.every((v) => typeof v === 'string');
  const records = (value: unknown, keys: readonly string[]): boolean =>
    Array.isArray(value) && value.every((v) => typeof v === 'object' && v !== null && keys.every((k) => typeof (v as Record<string, unknown>)[k] === 'string'));
  if (typeof modules !== 'object' || modules === null || !Object.values(modules).every(strings)) return null;
  if (!records(problems, ['file', 'reason']) || !records(preloaded, ['file', 'why'])) return null;
  return { modules, problems, preloaded } as ImportGraph;
}
