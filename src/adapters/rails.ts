import { minitestFilter, minitestReporterEnv, RUBY_INSTALL_HINT, rubyFailureLines, selectedFiles } from './ruby.js';
import type { Adapter, Invocation, PlanRequest } from './types.js';

export const rails: Adapter = {
  id: 'rails',
  // Not bin/rails: /usr/bin/rails would make / look like a project. Rails apps have both.
  markers: ['Gemfile', 'Rakefile'],
  lookingFor: 'bin/rails (bin/rails test)',
  installHint: RUBY_INSTALL_HINT,
  failureLines: rubyFailureLines,

  detect(facts) {
    return facts.exists('bin/rails') ? 'bin/rails found: Rails through `bin/rails test`' : null;
  },

  plan(request: PlanRequest): Invocation {
    const report = request.artifacts.file('minitest.jsonl');
    const filter = minitestFilter(request);
    // Rails parses its own -n; a /…/ value is a regexp to minitest.
    const nameArgs = filter === null ? [] : ['-n', `/${filter}/`];
    const launcher = request.facts.isExecutable('bin/rails') ? ['bin/rails'] : ['ruby', 'bin/rails'];
    return {
      argv: [...launcher, 'test', ...selectedFiles(request), ...nameArgs],
      env: minitestReporterEnv(request, report, null),
      cwd: request.root,
      reports: [{ path: report, parser: 'minitest-jsonl' }],
    };
  },
};
