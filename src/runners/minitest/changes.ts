/** minitest's part of a change's plan: what the rake task loads before every test file,
 * `-r` in its ruby_opts and the requires of Minitest::TestTask's test_prelude. */
import { rubyChanges } from '../../ecosystems/ruby-changes/affected.js';
import type { ProjectFacts } from '../../project/facts.js';

/** Require names on the Rakefile's `ruby_opts` and `test_prelude` lines. A changed
 * Rakefile is the whole suite, so these are as the tree has them. */
export function rakePreloads(facts: ProjectFacts): string[] {
  const lines = (facts.read('Rakefile') ?? '').split('\n').filter((line) => /\b(?:ruby_opts|test_prelude)\b/.test(line));
  return lines.flatMap((line) => [
    ...[...line.matchAll(/-r\s*([\w./-]+)/g)].map((m) => m[1] ?? ''),
    ...[...line.matchAll(/\brequire[\s(]+\\?["']([\w./-]+)\\?["']/g)].map((m) => m[1] ?? ''),
  ]).filter((name) => name !== '');
}

export const minitestChanges = rubyChanges({ preloads: (request) => rakePreloads(request.facts) });
