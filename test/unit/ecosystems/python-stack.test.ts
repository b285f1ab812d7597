import { describe, expect, it } from '@jest/globals';
import { pythonStack } from '../../../src/ecosystems/python.js';

const TRACEBACK = `  File "/usr/lib/python3/dist-packages/_pytest/python.py", line 195, in pytest_pyfunc_call
    result = testfunction(**testargs)
  File "/p/tests/test_widget.py", line 16, in test_explodes
    explode()
  File "/p/.venv/lib/python3.11/site-packages/attr/_make.py", line 9, in wrap
    return f()
  File "/p/widget.py", line 2, in explode
    raise ValueError("too hot")
`;

describe('pythonStack', () => {
  it('keeps the frames in the project, innermost first: not pytest, the standard library or a virtualenv\'s packages', () => {
    expect(pythonStack(TRACEBACK, '/p')).toEqual({
      stack: [
        { file: 'widget.py', line: 2, function: 'explode' },
        { file: 'tests/test_widget.py', line: 16, function: 'test_explodes' },
      ],
    });
  });

  it('is nothing without a traceback', () => {
    expect(pythonStack(null, '/p')).toEqual({});
    expect(pythonStack('AssertionError: no frames here', '/p')).toEqual({ stack: [] });
  });
});
