import { describe, expect, it } from '@jest/globals';
import { detectRunner } from '../../../src/detect/detect.js';
import { factsFromFiles } from '../../../src/project/facts.js';
import { HarnessError } from '../../../src/model/errors.js';

const LOCK_WITH_RSPEC = 'GEM\n  specs:\n    rspec-core (3.12.0)\n      rspec-support (~> 3.12.0)\n';
const detect = (files: Record<string, string>) => {
  const { adapter, reason } = detectRunner(factsFromFiles('/p', files));
  return [adapter.id, reason];
};

describe('detectRunner', () => {
  it('picks rails when bin/rails exists, even beside rspec', () => {
    expect(detect({ 'bin/rails': '', Gemfile: '', 'Gemfile.lock': LOCK_WITH_RSPEC, 'spec/a_spec.rb': '' }))
      .toEqual(['rails', 'bin/rails found: Rails through `bin/rails test`']);
  });

  it('picks rspec when Gemfile.lock lists rspec-core or rspec-rails and spec/ exists', () => {
    expect(detect({ Gemfile: '', 'Gemfile.lock': LOCK_WITH_RSPEC, 'spec/a_spec.rb': '' })[0]).toBe('rspec');
    expect(detect({ Gemfile: '', 'Gemfile.lock': '    rspec-rails (6.0.0)\n', 'spec/a_spec.rb': '' })[0]).toBe('rspec');
  });

  it('does not take rspec as a dependency of another gem for the runner, nor without spec/', () => {
    expect(detect({ Gemfile: '', 'Gemfile.lock': '      rspec-core (>= 3)\n', 'spec/a_spec.rb': '' })[0]).toBe('minitest');
    expect(detect({ Gemfile: '', 'Gemfile.lock': LOCK_WITH_RSPEC })[0]).toBe('minitest');
  });

  it('falls back to minitest through rake for a Gemfile or a Rakefile', () => {
    expect(detect({ Gemfile: '' })).toEqual(['minitest', 'Gemfile found, without bin/rails or rspec in Gemfile.lock: minitest through `bundle exec rake test`']);
    expect(detect({ Rakefile: '' })).toEqual(['minitest', 'Rakefile found, without a Gemfile: minitest through `rake test` (the Rakefile declares no test task: `rake test` runs only what rake finds under that name)']);
  });

  it('says what it looked for, and where, when nothing applies', () => {
    let error: unknown;
    try {
      detect({ 'README.md': '' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('NO_RUNNER');
    expect((error as HarnessError).exitCode).toBe(3);
    expect((error as HarnessError).message).toBe('no test runner detected in /p; looked for bin/rails (bin/rails test); '
      + 'Gemfile.lock listing rspec-core or rspec-rails, with a spec/ directory (bundle exec rspec); '
      + 'vitest in package.json (dependencies or scripts.test) or a vitest.config.* file; '
      + 'jest in package.json (dependencies, a "jest" section or scripts.test) or a jest.config.* file; '
      + 'package.json listing mocha, a .mocharc file, or scripts.test running mocha; '
      + 'scripts.test running node --test, or node --test files in ., test/, tests/ or __tests__/ (node --test); '
      + 'go.mod (go test); Cargo.toml (cargo test); '
      + 'tox.ini, noxfile.py, a Makefile or CI config running python -m unittest, or load_tests in test files, with no pytest configuration (python -m unittest); '
      + 'pytest.ini, a pytest section in pyproject.toml, tox.ini or setup.cfg, conftest.py or test_*.py files, also inside packages and src/ (pytest); '
      + 'a Gemfile or Rakefile (minitest via rake test)');
  });

  it('says what it saw in package.json when no JavaScript runner applies', () => {
    const seen = (files: Record<string, string>) => {
      try {
        detect(files);
      } catch (error) {
        return (error as HarnessError).message.split('. Saw: ').slice(1);
      }
      return null;
    };
    const where = 'no vitest, jest or mocha in its dependencies, no config file of theirs, and no node --test files in ., test/, tests/, __tests__/';
    expect(seen({ 'package.json': JSON.stringify({ scripts: { test: 'tsc && eslint .' } }), 'tests/helpers.js': '' }))
      .toEqual([`scripts.test ("tsc && eslint .") runs no runner run-tests knows; ${where}`]);
    expect(seen({ 'package.json': JSON.stringify({ scripts: { test: 'jest | tee log' } }) }))
      .toEqual([`scripts.test ("jest | tee log") is a shell command line run-tests does not read; ${where}`]);
    expect(seen({ 'package.json': '{}' })).toEqual([`package.json has no scripts.test; ${where}`]);
    expect(seen({ 'package.json': JSON.stringify({ scripts: { test: 'react-scripts test' } }) }))
      .toEqual([`scripts.test ("react-scripts test") runs react-scripts test: jest with a config built in code that run-tests cannot give jest (--runner jest runs jest without it); ${where}`]);
  });

  it('ranks the ecosystems: Rails and rspec, then a JavaScript runner with evidence, then go, then rake', () => {
    const pkg = (json: object) => JSON.stringify(json);
    expect(detect({ 'bin/rails': '', Gemfile: '', 'package.json': pkg({ devDependencies: { jest: '1' } }) })[0]).toBe('rails');
    expect(detect({ Gemfile: '', 'package.json': pkg({ devDependencies: { jest: '1' } }) })[0]).toBe('jest');
    expect(detect({ 'go.mod': 'module m', 'package.json': pkg({ devDependencies: { prettier: '1' } }) })[0]).toBe('go');
    expect(detect({ 'go.mod': 'module m', 'package.json': pkg({ scripts: { test: 'node --test' } }) })[0]).toBe('node-test');
    expect(detect({ Rakefile: '', 'package.json': pkg({ name: 'x' }) })[0]).toBe('minitest');
    expect(detect({ 'Cargo.toml': '[package]', 'package.json': pkg({ name: 'x' }) })[0]).toBe('cargo');
    expect(detect({ 'pytest.ini': '[pytest]', Rakefile: '' })[0]).toBe('pytest');
  });

  it('honours --runner and rejects an unknown one as a usage error', () => {
    const { adapter, reason } = detectRunner(factsFromFiles('/p', { Gemfile: '' }), 'rspec');
    expect([adapter.id, reason]).toEqual(['rspec', '--runner rspec given']);
    expect(() => detectRunner(factsFromFiles('/p', {}), 'nope')).toThrow(/--runner "nope" is not a runner/);
  });
});
