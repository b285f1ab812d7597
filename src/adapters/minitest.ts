import { usageError } from '../core/errors.js';
import { bundleExec, minitestFilter, minitestReporterEnv, RUBY_INSTALL_HINT, rubyFailureLines, selectedFiles, usesBundler } from './ruby.js';
import type { Adapter, Invocation, PlanRequest } from './types.js';

/** Characters rake would interpret: it hands the test command line to a shell, with
 * file names in double quotes. */
const RAKE_UNSAFE_PATH = /["$`\\\n]/;

/** Rake's TEST variable is a glob; escape glob syntax so each path matches only itself. */
const escapeGlob = (file: string): string => file.replace(/[*?[\]{},\\]/g, (c) => `\\${c}`);

export function rakeTestGlob(files: readonly string[]): string | null {
  if (files.length === 0) return null;
  for (const file of files) {
    if (RAKE_UNSAFE_PATH.test(file)) throw usageError(`rake cannot be given the path ${JSON.stringify(file)} safely; rename it or run its suite without a file argument`);
  }
  const [only] = files;
  return files.length === 1 && only !== undefined ? escapeGlob(only) : `{${files.map(escapeGlob).join(',')}}`;
}

export const minitest: Adapter = {
  id: 'minitest',
  markers: ['Gemfile', 'Rakefile'],
  lookingFor: 'a Gemfile or Rakefile (minitest via rake test)',
  installHint: RUBY_INSTALL_HINT,
  failureLines: rubyFailureLines,

  detect(facts) {
    if (facts.exists('Gemfile')) return 'Gemfile found, without bin/rails or rspec in Gemfile.lock: minitest through `bundle exec rake test`';
    if (facts.exists('Rakefile')) return 'Rakefile found, without a Gemfile: minitest through `rake test`';
    return null;
  },

  plan(request: PlanRequest): Invocation {
    const report = request.artifacts.file('minitest.jsonl');
    const glob = rakeTestGlob(selectedFiles(request));
    const env = minitestReporterEnv(request, report, minitestFilter(request));
    if (glob !== null) env.TEST = glob;
    return {
      ...(usesBundler(request) ? bundleExec(request, ['rake', 'test']) : { argv: ['rake', 'test'] }),
      env,
      cwd: request.root,
      shownEnv: ['TEST', 'RUN_TESTS_MINITEST_FILTER'],
      reports: [{ path: report, parser: 'minitest-jsonl' }],
    };
  },
};
