import { describe, expect, it } from '@jest/globals';
import { refusedOption } from '../../../src/project/runner-args.js';

describe('refusedOption', () => {
  const refused = { '--format': 'no', '-f': 'short', '-c': 'compiles' };

  it('finds an option as --opt, --opt=value, and a one-letter option bundled', () => {
    expect(refusedOption('rspec', ['--seed', '1', '--format=json'], refused)).toBe('"--format=json" cannot be passed to rspec: no');
    expect(refusedOption('rspec', ['-fd'], refused)).toBe('"-fd" cannot be passed to rspec: short');
    expect(refusedOption('rspec', ['--formatter', '-x', 'format'], refused)).toBeNull();
  });

  it('without bundling, a single-dash name is itself only (go: -count=1 is not -c)', () => {
    expect(refusedOption('go test', ['-count=1', '-cover'], refused, { bundles: false })).toBeNull();
    expect(refusedOption('go test', ['-c'], refused, { bundles: false })).toBe('"-c" cannot be passed to go test: compiles');
  });

  it("stops at the arguments' own --", () => {
    expect(refusedOption('pytest', ['--', '--format'], refused)).toBeNull();
  });
});
