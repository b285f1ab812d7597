import picomatch from 'picomatch';
import type { ProjectFacts } from '../../project/facts.js';
import { packageJson } from '../../ecosystems/node/project.js';

/** Which files are mocha test files in a project: those its spec (the script's
 * operands and `--spec`, else `spec` in .mocharc.json or package.json's "mocha") names,
 * with mocha's extensions (any file with them when no spec is known). mocha does not
 * search a directory operand below its top level; run-tests gives it the test files
 * below instead. */

/** mocha options that take a value (the value is never a spec). */
const VALUED = new Set([
  '--config', '--package', '--reporter', '-R', '--reporter-option', '--reporter-options', '-O', '--ui', '-u',
  '--timeout', '--timeouts', '-t', '--slow', '-s', '--grep', '-g', '--fgrep', '-f', '--require', '-r',
  '--extension', '--ignore', '--exclude', '--file', '--jobs', '-j', '--retries', '--node-option', '-n',
  '--watch-files', '--watch-ignore', '--import', '--loader', '--experimental-loader',
]);
const DEFAULT_EXTENSIONS = ['js', 'cjs', 'mjs'];

interface MochaFiles {
  readonly specs: readonly string[];
  readonly extensions: readonly string[];
}

/** The spec and extensions of the script's arguments, else of the config. */
function mochaFiles(facts: ProjectFacts, args: readonly string[]): MochaFiles {
  const specs: string[] = [];
  const extensions: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    if (flag === '--spec') specs.push(inline ?? args[(i += 1)] ?? '');
    else if (flag === '--extension') extensions.push(inline ?? args[(i += 1)] ?? '');
    else if (VALUED.has(flag)) i += inline === null ? 1 : 0;
    else if (!arg.startsWith('-')) specs.push(arg);
  }
  const config = configured(facts);
  return {
    specs: specs.length > 0 ? specs : config.specs,
    extensions: extensions.length > 0 ? extensions : config.extensions.length > 0 ? config.extensions : DEFAULT_EXTENSIONS,
  };
}

/** The script's arguments without its spec (operands and `--spec`): what mocha is given
 * when run-tests names the files, as the launcher replaces the spec with them. */
export function withoutSpecs(args: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, null];
    if (flag === '--spec') i += inline === null ? 1 : 0;
    else if (VALUED.has(flag)) kept.push(...args.slice(i, (i += inline === null ? 1 : 0) + 1));
    else if (arg.startsWith('-')) kept.push(arg);
  }
  return kept;
}

/** spec and extension from .mocharc.json or package.json's "mocha". */
function configured(facts: ProjectFacts): MochaFiles {
  const list = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  let config: Record<string, unknown> = {};
  try {
    const rc = facts.read('.mocharc.json');
    const fromPackage = (packageJson(facts) as { mocha?: unknown } | null)?.mocha;
    const value: unknown = rc !== null ? JSON.parse(rc) : fromPackage;
    if (typeof value === 'object' && value !== null) config = value as Record<string, unknown>;
  } catch {
    config = {};
  }
  return { specs: list(config['spec']), extensions: list(config['extension']) };
}

/** Whether a project-relative file is one of the project's mocha test files. */
export function mochaTestFile(facts: ProjectFacts, scriptArgs: readonly string[]): (file: string) => boolean {
  const { specs, extensions } = mochaFiles(facts, scriptArgs);
  const hasExtension = (file: string) => extensions.some((e) => file.endsWith(`.${e.replace(/^\./, '')}`));
  const matchers = specs.map((spec) => specMatcher(facts, spec.replace(/^\.\//, '').replace(/\/+$/, '')));
  return (file) => hasExtension(file) && (matchers.length === 0 || matchers.some((m) => m(file)));
}

/** A glob matches as mocha's glob would; a directory holds test files at any depth
 * (below its top level only with --recursive, for mocha itself: a directory operand
 * inside it is still asking for its tests); a file is itself. */
function specMatcher(facts: ProjectFacts, spec: string): (file: string) => boolean {
  if (picomatch.scan(spec).isGlob) return picomatch(spec, { dot: false });
  if (!facts.isDirectory(spec)) return (file) => file === spec;
  const prefix = spec === '' || spec === '.' ? '' : `${spec}/`;
  return (file) => file.startsWith(prefix);
}
