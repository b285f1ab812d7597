import { describe, expect, it } from '@jest/globals';
import { displayCommand, shellQuote } from '../../../src/core/quote.js';

const shown = (argv: string[], more: Partial<Parameters<typeof displayCommand>[0]> = {}) => displayCommand({ argv, env: {}, cwd: '/p', ...more });

describe('displayCommand', () => {
  it('shows paths under the project root relative to it, quoted for a shell', () => {
    expect(shown(['rspec', '--out', '/p/.run-tests/rspec.json', '/p/spec/a b_spec.rb', '/elsewhere/x'])).toBe("rspec --out .run-tests/rspec.json 'spec/a b_spec.rb' /elsewhere/x");
    expect(shown(['/p/.venv/bin/python', '-m', 'pytest'])).toBe('.venv/bin/python -m pytest');
    expect(shown(['rake', 'test'], { env: { TEST: '/p/test/a_test.rb' }, shownEnv: ['TEST'] })).toBe('TEST=test/a_test.rb rake test');
    expect(shown(['go', 'test', './...'], { thenArgv: [['go', 'test', '/p/sub']] })).toBe('go test ./... ; go test sub');
  });

  it('keeps a path as run where its relative form would mean something else', () => {
    // An option, not a file.
    expect(shown(['rspec', '/p/--dry-run', '/p/-x_spec.rb'])).toBe('rspec /p/--dry-run /p/-x_spec.rb');
    expect(shown(['rake'], { env: { TEST: '/p/--x_test.rb' }, shownEnv: ['TEST'] })).toBe('TEST=/p/--x_test.rb rake');
    // A program without a slash is looked up on PATH.
    expect(shown(['/p/runner', '/p/test/a.js'])).toBe('/p/runner test/a.js');
    expect(shown(['/p/', 'x'])).toBe('/p/ x');
  });

  it('asks the runner, when it tells paths by their shape, whether the relative form is still a path', () => {
    const readsAsPath = (relative: string) => /^\w+\//.test(relative);
    expect(shown(['bin/rails', 'test', '/p/test/a_test.rb', '/p/my-tests/a_test.rb', '/p/a_test.rb'], { readsAsPath }))
      .toBe('bin/rails test test/a_test.rb /p/my-tests/a_test.rb /p/a_test.rb');
  });
});

describe('shellQuote', () => {
  it('quotes words a shell would split or expand, and nothing else', () => {
    expect(['plain-word_1.rb', 'a b', "it's", '$HOME', ''].map(shellQuote)).toEqual(['plain-word_1.rb', "'a b'", "'it'\\''s'", "'$HOME'", "''"]);
  });
});
