import { usageError } from '../../model/errors.js';
import { chooseRakeTestTask, type RakeTestTask } from './rake-tasks.js';
import { asFileOperand, bundleExec, minitestFilter, minitestReporterEnv, minitestSelectedByName, RUBY_INSTALL_HINT, rubyFailureLines, rubyLister, selectedFiles, usesBundler } from '../../ecosystems/ruby.js';
import { listedUnits } from '../../ecosystems/listed-units.js';
import type { Runner, Invocation, PlanRequest, ShardUnit, UnitsRequest } from '../types.js';
import { minitestTestsAt } from './at-line.js';
import { minitestChanges } from './changes.js';

/** Characters rake would interpret: it hands the test command line to a shell, with
 * file names in double quotes. */
const RAKE_UNSAFE_PATH = /["$`\\\n]/;

/** Rake's TEST variable is a glob; escape glob syntax so each path matches only itself. */
const escapeGlob = (file: string): string => file.replace(/[*?[\]{},\\]/g, (c) => `\\${c}`);

/** Test files below a directory operand when the task's own glob says nothing: rake's
 * default (`test*.rb`) and the usual suffixes. */
const DEFAULT_FILE_PATTERN = '{*_test,*_spec,test_*}.rb';

/** TEST for the files and directories to run: each path only itself (a directory, every
 * file below it that the task's glob would take), never read as an option by rake's loader. */
export function rakeTestGlob(files: readonly string[], isDirectory: (file: string) => boolean = () => false,
  filePattern: string | null = null): string | null {
  if (files.length === 0) return null;
  const globs = files.map((file) => {
    if (RAKE_UNSAFE_PATH.test(file)) throw usageError(`rake cannot be given the path ${JSON.stringify(file)} safely; rename it or run its suite without a file argument`);
    const path = escapeGlob(asFileOperand(file));
    return isDirectory(file) ? `${path}/**/${filePattern ?? DEFAULT_FILE_PATTERN}` : path;
  });
  const [only] = globs;
  return globs.length === 1 && only !== undefined ? only : `{${globs.join(',')}}`;
}

/** A word as a POSIX shell reads it back: rake gives TESTOPTS to a shell, and
 * Minitest::TestTask splits A as one would (Shellwords). */
const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

const rakeCommand = (task: RakeTestTask): string => `rake ${task.name}`;

export const minitest: Runner = {
  id: 'minitest',
  parsers: { 'minitest-jsonl': { load: async () => (await import('./events.js')).createMinitestParser } },
  markers: ['Gemfile', 'Rakefile'],
  lookingFor: 'a Gemfile or Rakefile (minitest via rake test)',
  installHint: RUBY_INSTALL_HINT,
  failureLines: rubyFailureLines,
  selectedByName: minitestSelectedByName,

  /** The test method at the line (every one of a class at its other lines), run by its exact name. */
  testsAt(file, at, facts) {
    if ('node' in at) throw usageError(`minitest has no node ids (${file}::${at.node}): give a line, ${file}:<line>`);
    return { tests: minitestTestsAt(file, at.line, facts.read(file) ?? '') };
  },

  detect(facts) {
    const { task, why } = chooseRakeTestTask(facts);
    const because = why === null ? '' : ` (${why})`;
    if (facts.exists('Gemfile')) return `Gemfile found, without bin/rails or rspec in Gemfile.lock: minitest through \`bundle exec ${rakeCommand(task)}\`${because}`;
    if (facts.exists('Rakefile')) return `Rakefile found, without a Gemfile: minitest through \`${rakeCommand(task)}\`${because}`;
    return null;
  },

  /** A unit is a test file, as the rake task finds them (reporters/minitest/list_rake_files.rb):
   * Rake::TestTask's file_list, with TEST as a run of those files sets it; Minitest::TestTask's
   * test_globs, narrowed to the files our plugin would select. */
  shard: { selects: 'files', units: minitestUnits },

  /** A test file is selected by what it loads: docs/runners/minitest.md, "Testing a change". */
  changes: minitestChanges,

  plan(request: PlanRequest): Invocation {
    const report = request.artifacts.file('minitest.jsonl');
    const { task } = chooseRakeTestTask(request.facts);
    const files = selectedFiles(request);
    // Minitest::TestTask loads every file whatever TEST says: our plugin selects by file.
    const byPlugin = task.kind === 'Minitest::TestTask';
    const env = minitestReporterEnv(request, report, minitestFilter(request), byPlugin ? files : []);
    const glob = byPlugin ? null : rakeTestGlob(files, (file) => request.facts.isDirectory(file), task.filePattern);
    if (glob !== null) env.TEST = glob;
    const rake = ['rake', task.name];
    const bundled = usesBundler(request);
    const filter = env.RUN_TESTS_MINITEST_FILTER;
    // The filter in the task's own option variable, as one word: rake's test loader
    // loads each argument not starting with `-` as a file.
    const options = filter === undefined ? [] : [`${task.kind === 'Minitest::TestTask' ? 'A' : 'TESTOPTS'}=${shellWord(`--name=/${filter}/`)}`];
    return {
      ...(bundled ? bundleExec(request, rake) : { argv: rake }),
      shownArgv: () => [...(bundled ? ['bundle', 'exec'] : []), ...rake, ...options],
      env,
      cwd: request.root,
      // Minitest::TestTask has no variable for files: our plugin's selection stays shown.
      shownEnv: ['TEST', 'RUN_TESTS_MINITEST_FILES'],
      reports: [{ path: report, parser: 'minitest-jsonl' }],
    };
  },
};

function minitestUnits(request: UnitsRequest): Promise<ShardUnit[]> {
  const { task } = chooseRakeTestTask(request.facts);
  const lister = rubyLister(request, ['minitest', 'list_rake_files.rb'], [task.name], `the files of \`rake ${task.name}\``);
  const glob = task.kind === 'Rake::TestTask' ? rakeTestGlob(request.files, (file) => request.facts.isDirectory(file), task.filePattern) : null;
  // As plan() sets them: the run's own TEST stands when no file is given.
  const env = { ...lister.env };
  if (glob !== null) env.TEST = glob;
  if (task.kind === 'Minitest::TestTask' && request.files.length > 0) env.RUN_TESTS_MINITEST_FILES = JSON.stringify(request.files);
  return listedUnits(request.root, { ...lister, env });
}
