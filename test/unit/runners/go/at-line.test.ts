import { describe, expect, it } from '@jest/globals';
import { goTestAt } from '../../../../src/runners/go/at-line.js';

const SOURCE = `package sub

import "testing"

// TestDouble doubles.
func TestDouble(t *testing.T) {
	t.Run("sub", func(t *testing.T) {
	})
}

func helper() {}

func Testlower(t *testing.T) {}

func ExampleDouble() {
	// Output: 8
}
`;

describe('goTestAt', () => {
  const at = (line: number, file = 'sub/calc_test.go') => goTestAt(file, line, SOURCE, 'example.com/m');

  it('is the top-level function whose body holds the line, in its package', () => {
    expect(at(6)).toEqual({ id: 'example.com/m/sub TestDouble', test_name: 'TestDouble', file: 'sub/calc_test.go', line: 6, status: 'failed', message: '' });
    expect(at(8).test_name).toBe('TestDouble');
    expect(at(9).test_name).toBe('TestDouble');
    expect(at(16).test_name).toBe('ExampleDouble');
    expect(goTestAt('calc_test.go', 6, SOURCE, 'example.com/m').id).toBe('example.com/m TestDouble');
  });

  it('refuses a comment above a function, a helper, a name go does not run, and a file that is no _test.go', () => {
    for (const line of [3, 5, 11, 13, 99]) expect(() => at(line)).toThrow(`no Test, Fuzz or Example function is defined at sub/calc_test.go:${line}`);
    expect(() => at(6, 'sub/calc.go')).toThrow('no Test, Fuzz or Example function is defined at sub/calc.go:6');
    expect(() => goTestAt('calc_test.go', 6, SOURCE, null)).toThrow('go.mod names no module');
  });
});
