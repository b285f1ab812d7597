import { expect } from '@jest/globals';
import { HarnessError } from '../../../src/model/errors.js';

/** The USAGE error a call throws (exit 2, one line), or fails the test. */
export function usage(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).exitCode).toBe(2);
    expect((error as HarnessError).message).not.toContain('\n');
    return (error as HarnessError).message;
  }
  throw new Error('expected a usage error');
}
