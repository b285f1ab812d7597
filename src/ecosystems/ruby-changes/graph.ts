/** Which Ruby file loads which: `require` and its kin, the files a `Dir[...]` glob
 * requires, the rspec/minitest naming convention, the constants each file names, and,
 * where an autoloader loads files by name, the other names each file uses. Each edge is one file loading
 * (or possibly loading) another; a load the graph cannot follow is noted, never dropped. */
import path from 'node:path';
import picomatch from 'picomatch';
import { nameKey, testedName, wordKeys, type Inflections } from './names.js';
import type { LoadFact, SourceFacts } from './sources.js';

/** Why one file reaches another, in the order a reason prefers them. */
export type EdgeKind = 'requires' | 'convention' | 'requests' | 'references';
const RANK: Readonly<Record<EdgeKind, number>> = { requires: 0, convention: 1, requests: 2, references: 3 };

export interface Graph {
  /** from -> to -> why. */
  readonly edges: ReadonlyMap<string, ReadonlyMap<string, EdgeKind>>;
  /** A file with a load the graph cannot follow -> why, for the whole suite's reason. */
  readonly unknown: ReadonlyMap<string, string>;
  /** A file that loads a path outside the project, not a changed file -> that path. */
  readonly outside: ReadonlyMap<string, string>;
}

export interface GraphInput {
  readonly root: string;
  /** Every .rb file of the project, root-relative, and the changed ones outside it
   * (`../`), which are not in sources. */
  readonly files: readonly string[];
  /** Views and components whose code is read (they are in sources too). */
  readonly templates: readonly string[];
  /** A template whose code is not read, which may name anything; null if none. */
  readonly opaqueTemplate: string | null;
  readonly sources: ReadonlyMap<string, SourceFacts>;
  readonly units: ReadonlySet<string>;
  readonly changed: ReadonlySet<string>;
  /** What every unit loads before its own code (rspec's `--require`), as require names. */
  readonly preloads: readonly string[];
  /** Constants are loaded by the names used (Zeitwerk, Rails). */
  readonly autoload: boolean;
  readonly inflections: Inflections;
}

/** A file's own directory is config/ or db/: loaded by the framework, never autoloaded. */
export const isConfig = (file: string): boolean => file.startsWith('config/') || file.startsWith('db/');

export class GraphBuilder {
  readonly edges = new Map<string, Map<string, EdgeKind>>();
  readonly unknown = new Map<string, string>();
  readonly outside = new Map<string, string>();
  private readonly fileSet: ReadonlySet<string>;
  private readonly byBase = new Map<string, string[]>();
  private readonly byKey = new Map<string, string[]>();
  private readonly byStem = new Map<string, string[]>();

  constructor(readonly input: GraphInput) {
    this.fileSet = new Set(input.files);
    for (const file of input.files) {
      const base = path.posix.basename(file, '.rb');
      push(this.byBase, base, file);
      if (isConfig(file)) continue;
      const key = nameKey(base);
      for (const k of [key, ...(input.inflections.aliases.get(key) ?? [])]) push(this.byKey, k, file);
      // A name's family (post_policy.rb, post_decorator.rb for Post): what Rails gems look
      // up by a model's name. Not controllers or helpers, which routes and views reach.
      if (!input.units.has(file) && !/^app\/(?:controllers|helpers)\//.test(file)) {
        const parts = base.split('_');
        for (let n = 1; n < parts.length; n += 1) for (const k of wordKeys(parts.slice(0, n).join('_'), input.inflections.irregular)) push(this.byStem, k, file);
      }
    }
  }

  add(from: string, to: string, kind: EdgeKind): void {
    if (from === to) return;
    const out = this.edges.get(from) ?? new Map<string, EdgeKind>();
    const had = out.get(to);
    if (had === undefined || RANK[kind] < RANK[had]) out.set(to, kind);
    this.edges.set(from, out);
  }

  has(file: string): boolean {
    return this.fileSet.has(file);
  }

  /** Files `require name` may load: every project file some load path root gives that
   * name (lib/x.rb, spec/x.rb, app/models/x.rb, or below an -I directory). Taking them
   * all needs no knowledge of the load path, and is never narrower than it. */
  onLoadPath(name: string): string[] {
    const bare = name.replace(/\.(?:rb|so|bundle)$/, '');
    const base = path.posix.basename(bare);
    return (this.byBase.get(base) ?? []).filter((file) => file === `${bare}.rb` || file.endsWith(`/${bare}.rb`));
  }

  /** Files that define the constant a word may name, by their file name. */
  definers(word: string, family: boolean): string[] {
    const keys = wordKeys(word, this.input.inflections.irregular);
    return keys.flatMap((key) => [...(this.byKey.get(key) ?? []), ...(family ? this.byStem.get(key) ?? [] : [])]);
  }

  allDefiners(): string[] {
    return [...this.byKey.values()].flat();
  }

  build(): Graph {
    const { input } = this;
    for (const [file, facts] of input.sources) this.addSource(file, facts);
    for (const unit of input.units) {
      for (const name of input.preloads) for (const to of this.onLoadPath(name)) this.add(unit, to, 'requires');
      for (const to of this.convention(unit)) this.add(unit, to, 'convention');
    }
    if (input.autoload) this.addNamespaces();
    return { edges: this.edges, unknown: this.unknown, outside: this.outside };
  }

  private addSource(file: string, facts: SourceFacts): void {
    if (facts.error !== null) {
      // A changed file that no longer parses is still reached as a file; one that never
      // did hides what it loads.
      if (!this.input.changed.has(file)) this.unknown.set(file, `${file} does not parse with the project's Ruby (${facts.error}): what it loads cannot be told`);
      return;
    }
    const [dynamic] = facts.dynamic;
    if (dynamic) this.unknown.set(file, `${file}${dynamic.line === null ? '' : `:${dynamic.line}`} loads a computed path (${dynamic.what})`);
    for (const load of facts.loads) for (const to of this.loadTargets(file, load)) this.add(file, to, 'requires');
    for (const glob of facts.globs) for (const to of this.globTargets(file, glob.pattern, glob.abs)) this.add(file, to, 'requires');
    // A constant reaches the files named after it even without autoloading: a test that
    // uses a class another test file required runs in one process with it.
    for (const word of facts.consts) for (const to of this.definers(word, this.input.autoload)) this.add(file, to, 'references');
    if (!this.input.autoload) return;
    // Config runs at boot: the constants it names are loaded then; its symbols and
    // strings are settings, not loads. Elsewhere `has_many :comments`, `users(:one)` and
    // `post.comments` load a model no constant names.
    if (!isConfig(file)) for (const word of facts.words) for (const to of this.definers(word, false)) this.add(file, to, 'references');
    // A constant looked up by a computed name may be any autoloaded file.
    if (facts.computed.length > 0) for (const to of this.allDefiners()) this.add(file, to, 'references');
  }

  private loadTargets(file: string, load: LoadFact): string[] {
    if (load.parts !== undefined) return this.patternTargets(file, load, load.parts);
    const { root } = this.input;
    const exact = (absolute: string): string[] => {
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      const withExt = relative.endsWith('.rb') ? relative : `${relative}.rb`;
      if (this.fileSet.has(withExt)) return [withExt];
      if (withExt.startsWith('../')) this.outside.set(file, withExt);
      return [];
    };
    if (load.abs || load.path.startsWith('/')) return exact(load.path);
    if (load.kind === 'autoload_const') return this.definers(load.path, false);
    if (load.kind === 'require_relative') return exact(path.resolve(root, path.dirname(file), load.path));
    // `require "./x"` is read from the working directory, the project root.
    if (/^\.\.?\//.test(load.path)) return exact(path.resolve(root, load.path));
    if (load.kind === 'load') {
      const here = exact(path.resolve(root, load.path));
      if (here.length > 0) return here;
    }
    return this.onLoadPath(load.path);
  }

  /** `require "plugins/#{name}"` may load any file whose path the literal parts allow,
   * below any load path root (from the file's directory for require_relative). */
  private patternTargets(file: string, load: LoadFact, parts: readonly (string | null)[]): string[] {
    const [start, ...rest] = parts;
    const first = start ?? '';
    const absolute = load.abs || first.startsWith('/');
    const fromHere = load.kind === 'require_relative' || /^\.\.?\//.test(first);
    let prefix: string = first;
    if (absolute) {
      const relative = path.relative(this.input.root, first).split(path.sep).join('/');
      prefix = relative === '' || !first.endsWith('/') ? relative : `${relative}/`;
    } else if (fromHere) {
      prefix = path.posix.join(load.kind === 'require_relative' ? path.posix.dirname(file) : '.', first);
    }
    if (prefix === '..' || prefix.startsWith('../')) this.outside.set(file, `${prefix}…`);
    const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const body = [prefix, ...rest].map((part) => (part === null ? '.+' : escape(part))).join('').replace(/\\\.rb$/, '');
    const matches = new RegExp(`${absolute || fromHere ? '^' : '(?:^|/)'}${body}\\.rb$`);
    return this.input.files.filter((f) => matches.test(f));
  }

  private globTargets(file: string, pattern: string, abs: boolean): string[] {
    const relative = abs ? path.relative(this.input.root, pattern).split(path.sep).join('/') : pattern.replace(/^\.\//, '');
    if (relative.startsWith('../')) this.outside.set(file, relative);
    const matches = picomatch(relative, { dot: true });
    return this.input.files.filter((f) => matches(f));
  }

  /** spec/x_spec.rb and test/x_test.rb test lib/x.rb and app/**\/x.rb. */
  private convention(unit: string): string[] {
    const name = testedName(unit);
    if (name === null) return [];
    const rest = name.split('/').slice(1).join('/');
    return (this.byBase.get(path.posix.basename(name)) ?? []).filter((file) => !this.input.units.has(file) && /^(?:lib|app)\//.test(file)
      && (file === `${name}.rb` || file.endsWith(`/${name}.rb`) || (rest !== '' && file.endsWith(`/${rest}.rb`))));
  }

  /** Loading Admin::User loads Admin first: app/models/admin/user.rb reaches admin.rb. */
  private addNamespaces(): void {
    for (const file of this.input.files) {
      const parent = `${path.posix.dirname(file)}.rb`;
      if (path.posix.dirname(file) !== '.' && this.fileSet.has(parent)) this.add(file, parent, 'references');
    }
  }
}

function push(map: Map<string, string[]>, key: string, file: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [file]);
  else if (!list.includes(file)) list.push(file);
}
