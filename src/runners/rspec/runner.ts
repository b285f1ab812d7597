import path from 'node:path';
import { asFileOperand, bundleExec, rubyEnv, rubyLister, RUBY_INSTALL_HINT, rubyFailureLines, usesBundler } from '../../ecosystems/ruby.js';
import { listedUnits } from '../../ecosystems/listed-units.js';
import type { FailedTestRecord } from '../../model/results.js';
import { usageError } from '../../model/errors.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { refusedOption } from '../../project/runner-args.js';
import { documentParser } from '../../parsers/stream.js';
import { rspecChanges } from './changes.js';

const LISTS_RSPEC = /^\s{4}rspec-(?:core|rails) /m;

/** Options that replace the formatters run-tests reads, or after which rspec reports
 * examples it did not run, or runs none. */
const REFUSED: Readonly<Record<string, string>> = {
  '--format': 'it changes the formatters; run-tests gives rspec the ones it reads the results from',
  '-f': 'it is --format, which changes the formatters run-tests reads the results from',
  '--out': 'it moves the output of the formatters run-tests reads the results from',
  '-o': 'it is --out, which moves the output of the formatters run-tests reads the results from',
  '--dry-run': 'rspec then reports every example as passed without running it',
  '--bisect': 'it runs the suite many times over, not once',
  '--init': 'it writes configuration files and runs no test',
  '--help': 'it prints help and runs no test',
  '-h': 'it prints help and runs no test',
  '--version': 'it prints the version and runs no test',
  '-v': 'it prints the version and runs no test',
};

/** A line that declares an example group or an example (rspec's DSL and its aliases). */
const DECLARATION = /^\s*(?:RSpec\s*\.\s*)?(?:[fx]?(?:describe|context|it|specify|example)|feature|scenario|its|shared_examples(?:_for)?|shared_context|it_behaves_like|it_should_behave_like|include_examples|include_context|pending|skip)\b/;

export const rspec: Runner = {
  id: 'rspec',
  parsers: {
    'rspec-stream': { load: async () => (await import('./events.js')).createRspecStreamParser },
    'rspec-json': { load: async () => documentParser((await import('./json.js')).parseRspecJson) },
  },
  markers: ['Gemfile', '.rspec'],
  lookingFor: 'Gemfile.lock listing rspec-core or rspec-rails, with a spec/ directory (bundle exec rspec)',
  installHint: RUBY_INSTALL_HINT,
  failureLines: rubyFailureLines,
  // --example selects the examples whose full description (the reported name) contains it.
  selectedByName: (text, test) => test.name.includes(text),
  refusedArgument: (args) => refusedOption('rspec', args, REFUSED),

  /** rspec's own `file:line`: the example or group declared at the line or nearest above
   * it. With none above, rspec filters out every example, and with
   * run_all_when_everything_filtered runs them all: such a line is refused. */
  testsAt(file, at, facts) {
    if ('node' in at) throw usageError(`rspec has no node ids (${file}::${at.node}): give a line, ${file}:<line>`);
    const lines = (facts.read(file) ?? '').split('\n').slice(0, at.line);
    if (!lines.some((line) => DECLARATION.test(line))) throw usageError(`no example or group is declared at or above ${file}:${at.line}`);
    return { operands: [asFileOperand(`${file}:${at.line}`)] };
  },

  detect(facts) {
    const lock = facts.read('Gemfile.lock');
    if (lock === null || !LISTS_RSPEC.test(lock)) return null;
    if (!facts.isDirectory('spec')) return null;
    return 'Gemfile.lock lists rspec and spec/ exists: `bundle exec rspec`';
  },

  /** A unit is a spec file, as rspec finds them: its own files_to_run, from the same
   * options (.rspec, SPEC_OPTS, `-- --pattern`), listed by reporters/rspec/list_files.rb. */
  shard: {
    selects: 'files',
    units: (request) => listedUnits(request.root,
      rubyLister(request, ['rspec', 'list_files.rb'], [...request.files.map(asFileOperand), ...(request.runnerArgs ?? [])], "rspec's spec files")),
  },

  /** A spec file is selected by what it loads: docs/runners/rspec.md, "Testing a change". */
  changes: rspecChanges,

  plan(request: PlanRequest): Invocation {
    const json = request.artifacts.file('rspec.json');
    const stream = request.artifacts.file('rspec-events.jsonl');
    const formatter = path.join(request.reportersDir, 'rspec', 'run_tests_formatter.rb');
    const selection = request.rerun ? rerunSelectors(request.rerun) : [...request.files.map(asFileOperand), ...(request.at ?? []), ...nameArgs(request)];
    const rspecArgv = [
      'rspec',
      '--format', 'progress',
      '--format', 'json', '--out', json,
      '--require', formatter, '--format', 'RunTests::StreamFormatter', '--out', stream,
      ...selection,
      ...(request.runnerArgs ?? []),
    ];
    const bundled = usesBundler(request);
    return {
      ...(bundled ? bundleExec(request, rspecArgv) : { argv: rspecArgv }),
      // Without our formatters: a person's rspec prints as the project's .rspec says.
      shownArgv: () => [...(bundled ? ['bundle', 'exec'] : []), 'rspec', ...selection, ...(request.runnerArgs ?? [])],
      env: rubyEnv(request.env),
      cwd: request.root,
      // The JSON formatter writes only when the run ends; the stream keeps what finished
      // before a timeout or crash.
      reports: [{ path: json, parser: 'rspec-json' }, { path: stream, parser: 'rspec-stream' }],
    };
  },
};

/** Example ids are exact even where several examples share a line; an error outside
 * examples reruns its file. One tied to no file at all (a suite hook) can only be
 * reproduced by the whole suite, and the rerun check then reports it as not run. */
function rerunSelectors(rerun: readonly FailedTestRecord[]): string[] {
  return [...new Set(rerun.flatMap((t) => (t.id !== '' ? [asFileOperand(t.id)] : t.file !== null ? [asFileOperand(t.file)] : [])))];
}

/** rspec's option parser takes the argument after --example as its value, whatever it
 * looks like: a name such as `--dry-run` never becomes an option. */
function nameArgs({ name }: PlanRequest): string[] {
  if (!name) return [];
  return name.regex ? ['--example-matches', name.text] : ['--example', name.text];
}
