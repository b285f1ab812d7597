import path from 'node:path';
import { usageError } from '../../model/errors.js';
import { minitestFilter, minitestReporterEnv, minitestSelectedByName, RUBY_INSTALL_HINT, rubyFailureLines, rubyLister, selectedFiles } from '../../ecosystems/ruby.js';
import { listedUnits } from '../../ecosystems/listed-units.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';
import { refusedOption } from '../../project/runner-args.js';
import { rubyChanges } from '../../ecosystems/ruby-changes/affected.js';

/** What `bin/rails test` takes for a path (Rails::TestUnit::Runner#path_argument?);
 * any other argument goes to minitest's option parser, or is dropped, and Rails then
 * runs the whole suite. */
const RAILS_PATH = /^[/\\]?\w+[/\\]/;

/** A file or directory as `bin/rails test` reads it: relative where Rails sees a path
 * (`test/models/user_test.rb`), else absolute (`--x_test.rb`, `my-tests/a_test.rb`). */
export function railsPathOperand(file: string, root: string): string {
  // Rails reads a trailing `:N` as a line to run.
  if (/:\d+$/.test(file)) throw usageError(`bin/rails test reads ${JSON.stringify(file)} as a file and a line; rename it or run its suite without a file argument`);
  if (RAILS_PATH.test(file)) return file;
  const absolute = path.posix.join(root, file);
  if (!RAILS_PATH.test(absolute)) throw usageError(`bin/rails test cannot be given the path ${JSON.stringify(file)} (in ${root}) as a file; run its suite without a file argument`);
  return absolute;
}

/** Options after which bin/rails test runs no test. */
const REFUSED: Readonly<Record<string, string>> = {
  '--help': 'it prints help and runs no test',
  '-h': 'it prints help and runs no test',
};

export const rails: Runner = {
  id: 'rails',
  // Not bin/rails: /usr/bin/rails would make / look like a project. Rails apps have both.
  markers: ['Gemfile', 'Rakefile'],
  lookingFor: 'bin/rails (bin/rails test)',
  installHint: RUBY_INSTALL_HINT,
  failureLines: rubyFailureLines,
  selectedByName: minitestSelectedByName,
  refusedArgument: (args) => refusedOption('bin/rails test', args, REFUSED),

  /** `bin/rails test file:line`: the test at that line, or every test of a class there. */
  testsAt(file, at, facts) {
    if ('node' in at) throw usageError(`bin/rails test has no node ids (${file}::${at.node}): give a line, ${file}:<line>`);
    return { operands: [`${railsPathOperand(file, facts.root)}:${at.line}`] };
  },

  detect(facts) {
    return facts.exists('bin/rails') ? 'bin/rails found: Rails through `bin/rails test`' : null;
  },

  /** A unit is a test file, as `bin/rails test` finds them: Rails::TestUnit::Runner's own
   * list (without arguments every *_test.rb below test/ but test/system and test/dummy), asked by
   * reporters/minitest/list_rails_files.rb without loading the application. */
  shard: {
    selects: 'files',
    units: (request) => listedUnits(request.root, rubyLister(request, ['minitest', 'list_rails_files.rb'],
      [...request.files.map((file) => railsPathOperand(file, request.root)), ...(request.runnerArgs ?? [])], 'the files of `bin/rails test`')),
  },

  /** A test file is selected by what it loads and the constants it names: docs/runners/rails.md, "Testing a change". */
  changes: rubyChanges(),

  plan(request: PlanRequest): Invocation {
    const report = request.artifacts.file('minitest.jsonl');
    const filter = minitestFilter(request);
    // Rails parses its own -n; a /…/ value is a regexp to minitest, never an option.
    const nameArgs = filter === null ? [] : ['-n', `/${filter}/`];
    const launcher = request.facts.isExecutable('bin/rails') ? ['bin/rails'] : ['ruby', 'bin/rails'];
    const files = [...selectedFiles(request).map((file) => railsPathOperand(file, request.root)), ...(request.at ?? [])];
    return {
      argv: [...launcher, 'test', ...files, ...nameArgs, ...(request.runnerArgs ?? [])],
      env: minitestReporterEnv(request, report, null),
      cwd: request.root,
      readsAsPath: (file) => RAILS_PATH.test(file),
      reports: [{ path: report, parser: 'minitest-jsonl' }],
    };
  },
};
