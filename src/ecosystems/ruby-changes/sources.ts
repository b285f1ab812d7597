/** The Ruby files of a project, and what each loads and names, read by
 * reporters/ruby/source_facts.rb with Ruby's own parser (Ripper): the project's Ruby
 * parses its own syntax exactly (heredocs, %-literals, comments), which no scan of ours
 * could promise, and nothing of the project is loaded or run. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HarnessError } from '../../model/errors.js';
import { lastLines } from '../../parsers/fields.js';
import { runListing } from '../../process/listing.js';
import type { ProjectFacts } from '../../project/facts.js';
import { rubyEnv } from '../ruby.js';

export interface LoadFact {
  /** require, require_relative, load, require_dependency, autoload; autoload_const is
   * ActiveSupport's `autoload :Name`, whose path is the constant's. */
  readonly kind: string;
  readonly path: string;
  /** path is absolute (built from __dir__, __FILE__, Rails.root); else as written. */
  readonly abs: boolean;
  /** A path that starts literally and goes on computed (`"plugins/#{name}"`): its
   * parts, null for each computed one; path is then the first. */
  readonly parts?: readonly (string | null)[];
  readonly line: number | null;
}

export interface GlobFact {
  readonly pattern: string;
  readonly abs: boolean;
  readonly line: number | null;
}

export interface Spot {
  readonly line: number | null;
  readonly what: string;
}

export interface SourceFacts {
  readonly loads: readonly LoadFact[];
  readonly globs: readonly GlobFact[];
  /** Loads of a path that cannot be told (`require name`). */
  readonly dynamic: readonly Spot[];
  /** constantize / const_get of a computed name. */
  readonly computed: readonly Spot[];
  readonly consts: readonly string[];
  readonly words: readonly string[];
  readonly superclasses: readonly string[];
  /** Why Ruby could not read or parse it; null when it did. */
  readonly error: string | null;
}

/** Directories whose files no test of the project's own loads as source: installed gems,
 * run output, other ecosystems' packages. */
const SKIPPED_DIRS = new Set(['node_modules', 'tmp', 'log', 'coverage', 'public']);
const isSkippedDir = (relative: string, name: string): boolean =>
  name.startsWith('.') || SKIPPED_DIRS.has(name) || relative === 'vendor/bundle' || relative === 'vendor/cache';

/** Whether `file` (root-relative) lies where projectFiles does not look. */
export function inSkippedDir(file: string): boolean {
  const parts = file.split('/').slice(0, -1);
  return parts.some((name, i) => isSkippedDir(parts.slice(0, i + 1).join('/'), name));
}

/** More Ruby files than this is no project a plan should read whole each time. */
export const MAX_RUBY_FILES = 20_000;

/** Views and components Rails renders by name: ERB (whose code fragments are lexed),
 * templates that are Ruby (jbuilder, builder …), and engines whose code run-tests cannot
 * read (haml, slim …), which may name anything. */
const TEMPLATE_DIR = /^app\/(?:views|components)\//;
const RUBY_TEMPLATE = /\.(?:erb|jbuilder|builder|ruby|rabl|arb|axlsx|prawn|rxml|rjs)$/;
const OPAQUE_TEMPLATE = /\.(?:haml|slim|liquid|mustache|hbs)$/;

export interface ProjectFiles {
  /** Every .rb file of the project, root-relative, sorted. */
  readonly ruby: readonly string[];
  /** Templates below app/views/ and app/components/ whose code is read. */
  readonly templates: readonly string[];
  /** Templates there whose code is not: the first, if any. */
  readonly opaque: string | null;
}

/** The project's Ruby files and templates; null beyond MAX_RUBY_FILES. */
export function projectFiles(facts: ProjectFacts): ProjectFiles | null {
  const ruby: string[] = [];
  const templates: string[] = [];
  let opaque: string | null = null;
  // A depth bound: a directory link that loops would otherwise be walked for ever.
  const walk = (relative: string, depth = 0): boolean => {
    for (const name of [...facts.list(relative)].sort()) {
      const child = relative === '' ? name : `${relative}/${name}`;
      if (facts.isDirectory(child)) {
        if (depth < 32 && !isSkippedDir(child, name) && !walk(child, depth + 1)) return false;
      } else if (name.endsWith('.rb')) {
        ruby.push(child);
        if (ruby.length + templates.length > MAX_RUBY_FILES) return false;
      } else if (TEMPLATE_DIR.test(child) && RUBY_TEMPLATE.test(name)) {
        templates.push(child);
      } else if (TEMPLATE_DIR.test(child) && OPAQUE_TEMPLATE.test(name)) {
        opaque ??= child;
      }
    }
    return true;
  };
  return walk('') ? { ruby, templates, opaque } : null;
}

/** How long reading every file may take: a large application parses in a few seconds. */
const SOURCE_FACTS_TIMEOUT_MS = 120_000;

/** What each file loads and names, by the project's Ruby; a RUNNER_FAILED error when
 * Ruby does not answer. */
export async function readSourceFacts(root: string, files: readonly string[], env: NodeJS.ProcessEnv, reportersDir: string): Promise<Map<string, SourceFacts>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-sources-'));
  const input = path.join(dir, 'in.json');
  const output = path.join(dir, 'out.json');
  const argv = ['ruby', path.join(reportersDir, 'ruby', 'source_facts.rb'), input, output];
  try {
    fs.writeFileSync(input, JSON.stringify({ root, files }));
    const outcome = await runListing({ argv, cwd: root, env: rubyEnv(env), timeoutMs: SOURCE_FACTS_TIMEOUT_MS });
    const answer = outcome.code === 0 ? readAnswer(output) : null;
    if (answer === null) {
      const ended = outcome.code === null ? `signal ${outcome.signal ?? '?'}` : `exit ${outcome.code}`;
      const said = lastLines(outcome.output, 10).text;
      throw new HarnessError('RUNNER_FAILED', `reading the Ruby sources failed (${ended})${said === '' ? '' : `:\n${said}`}`, { command: argv.join(' ') });
    }
    return answer;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function readAnswer(file: string): Map<string, SourceFacts> | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as { files?: Record<string, Partial<SourceFacts>> };
    if (typeof parsed.files !== 'object' || parsed.files === null) return null;
    return new Map(Object.entries(parsed.files).map(([file, facts]) => [file, complete(facts)]));
  } catch {
    return null;
  }
}

/** A file Ruby could not read has only its error. */
const complete = (facts: Partial<SourceFacts>): SourceFacts => ({
  loads: facts.loads ?? [], globs: facts.globs ?? [], dynamic: facts.dynamic ?? [], computed: facts.computed ?? [],
  consts: facts.consts ?? [], words: facts.words ?? [], superclasses: facts.superclasses ?? [], error: facts.error ?? null,
});
