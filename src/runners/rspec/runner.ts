import path from 'node:path';
import { asFileOperand, bundleExec, rubyEnv, RUBY_INSTALL_HINT, rubyFailureLines, usesBundler } from '../../ecosystems/ruby.js';
import type { FailedTestRecord } from '../../model/results.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { documentParser } from '../../parsers/stream.js';

const LISTS_RSPEC = /^\s{4}rspec-(?:core|rails) /m;

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

  detect(facts) {
    const lock = facts.read('Gemfile.lock');
    if (lock === null || !LISTS_RSPEC.test(lock)) return null;
    if (!facts.isDirectory('spec')) return null;
    return 'Gemfile.lock lists rspec and spec/ exists: `bundle exec rspec`';
  },

  plan(request: PlanRequest): Invocation {
    const json = request.artifacts.file('rspec.json');
    const stream = request.artifacts.file('rspec-events.jsonl');
    const formatter = path.join(request.reportersDir, 'rspec', 'run_tests_formatter.rb');
    const selection = request.rerun ? rerunSelectors(request.rerun) : [...request.files.map(asFileOperand), ...nameArgs(request)];
    const rspecArgv = [
      'rspec',
      '--format', 'progress',
      '--format', 'json', '--out', json,
      '--require', formatter, '--format', 'RunTests::StreamFormatter', '--out', stream,
      ...selection,
    ];
    const bundled = usesBundler(request);
    return {
      ...(bundled ? bundleExec(request, rspecArgv) : { argv: rspecArgv }),
      // Without our formatters: a person's rspec prints as the project's .rspec says.
      shownArgv: () => [...(bundled ? ['bundle', 'exec'] : []), 'rspec', ...selection],
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
