import path from 'node:path';
import type { Invocation, PlanRequest, UnitsRequest } from '../runners/types.js';
import { reportersDir, type Lister } from './listed-units.js';

/** Variables that would point `bundle exec` at another Gemfile or change the suite's
 * behaviour; RUBYOPT is replaced by ours. */
const STRIPPED = [/^BUNDLE_/, /^BUNDLER_/, /^RAILS_MAX_THREADS$/, /^RUBYOPT$/];

export function rubyEnv(parent: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(parent)) {
    if (!STRIPPED.some((pattern) => pattern.test(key))) env[key] = value;
  }
  return { ...env, ...extra };
}

export const usesBundler = (request: Pick<PlanRequest, 'facts'>): boolean => request.facts.exists('Gemfile');

/** `bundle exec <command>`, run as reporters/bundler/exec.rb runs it: bundler's own
 * setup and exec rules without bundler's command line, and a Ruby executable loaded
 * into the process where bundle exec would start a second Ruby (see that file).
 * Displayed as `bundle exec …`; `bundle` on PATH stands for an installed bundler. */
export function bundleExec(request: Pick<PlanRequest, 'reportersDir'>, command: readonly string[]): Pick<Invocation, 'argv' | 'shownArgv' | 'requires'> {
  return {
    argv: ['ruby', path.join(request.reportersDir, 'bundler', 'exec.rb'), ...command],
    shownArgv: (argv) => ['bundle', 'exec', ...argv.slice(2)],
    requires: ['bundle'],
  };
}

/** Ruby's own words for a failure before any test: `rake aborted!` with the lines after
 * it, up to a blank line or backtrace (rake rescues what it runs into), or an uncaught
 * exception's first line, `file:12:in `x': message (Class)` (bundler's GemNotFound). */
export function rubyFailureLines(log: string): string[] {
  const lines = log.split('\n');
  for (const [i, line] of lines.entries()) {
    if (line === 'rake aborted!') {
      const end = lines.findIndex((l, j) => j > i && (l.trim() === '' || /^\s*\/\S+:\d+:in /.test(l)));
      return lines.slice(i, Math.min(end === -1 ? lines.length : end, i + 5));
    }
    if (UNCAUGHT.test(line)) return [line];
  }
  return [];
}

/** `path:12:in `method': message (Some::Error)`, as Ruby prints an exception it ends on. */
const UNCAUGHT = /^\S.*:\d+:in [`'].*': .* \([A-Z]\w*(?:::[A-Z]\w*)*\)$/;

export const RUBY_INSTALL_HINT =
  'install Ruby and Bundler (Debian: apt-get install ruby bundler rake), then `bundle install` in the project';

/** Escapes text for a Ruby (Onigmo) regular expression, matching it literally. */
export function escapeRubyRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}\-#/\n\t]/g, (c) => (c === '\n' ? '\\n' : c === '\t' ? '\\t' : `\\${c}`));
}

/** A file operand that no Ruby runner can take for an option: `./` before a path that
 * starts with `-` (rspec's option parser and rake's test loader read such an argument as
 * an option; `rspec --dry-run` would pass a failing suite). */
export const asFileOperand = (file: string): string => (file.startsWith('-') ? `./${file}` : file);

/** The minitest plugin and load-error hook from reporters/minitest, set up through the
 * environment so the project's own command line stays untouched. */
export function minitestReporterEnv(request: PlanRequest, reportPath: string, filter: string | null,
  files: readonly string[] = []): NodeJS.ProcessEnv {
  const lib = path.join(request.reportersDir, 'minitest');
  const rubylib = request.env.RUBYLIB ? `${lib}${path.delimiter}${request.env.RUBYLIB}` : lib;
  return rubyEnv(request.env, {
    RUBYLIB: rubylib,
    RUBYOPT: '-rrun_tests/minitest_boot',
    RUN_TESTS_MINITEST_REPORT: reportPath,
    ...(filter === null ? {} : { RUN_TESTS_MINITEST_FILTER: filter }),
    ...(files.length === 0 ? {} : { RUN_TESTS_MINITEST_FILES: JSON.stringify(files) }),
  });
}

/** The minitest filter regexp source for a request: an anchored alternation of exact
 * `Class#name`s for reruns, else the --name filter (plain text matches as a substring). */
export function minitestFilter(request: Pick<PlanRequest, 'name' | 'rerun'>): string | null {
  if (request.rerun) return `\\A(?:${[...new Set(request.rerun.map((t) => escapeRubyRegex(t.id)))].join('|')})\\z`;
  if (!request.name) return null;
  if (request.name.regex) return request.name.text;
  // ActiveSupport's `test "a b"` defines `test_a_b`: a space in a plain name matches either.
  return escapeRubyRegex(request.name.text).replace(/ /g, '[ _]');
}

/** Whether minitest's filter for a plain --name selects a reported test: minitest matches
 * `name` or `Class#name` (the reported name), so a substring of the latter, a space also
 * matching `_` as minitestFilter has it. */
export function minitestSelectedByName(text: string, test: { readonly name: string }): boolean {
  const escaped = text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`).replace(/ /g, '[ _]');
  return new RegExp(escaped, 'u').test(test.name);
}

/** Files to run: the requested ones, or on a rerun the files of the failures (all files
 * when some failure has none, so no selected test is left out). */
export function selectedFiles(request: Pick<PlanRequest, 'files' | 'rerun'>): readonly string[] {
  if (!request.rerun) return request.files;
  const files = request.rerun.map((t) => t.file);
  if (files.some((f) => f === null)) return [];
  return [...new Set(files as string[])];
}

/** A lister of ours (reporters/<dir>/<script>) run by the project's Ruby, in its bundle
 * when it has one, with the run's environment: see listed-units.ts. */
export function rubyLister(request: UnitsRequest, script: readonly string[], args: readonly string[], what: string): Lister {
  return {
    argv: ['ruby', ...(request.facts.exists('Gemfile') ? ['-rbundler/setup'] : []), path.join(reportersDir(request), ...script), ...args],
    cwd: request.root,
    env: rubyEnv(request.env),
    what,
  };
}
