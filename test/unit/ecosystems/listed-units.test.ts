import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listedUnits, shardUnits } from '../../../src/ecosystems/listed-units.js';
import { HarnessError } from '../../../src/model/errors.js';

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-units-')));
fs.mkdirSync(path.join(root, 'spec/b'), { recursive: true });
fs.writeFileSync(path.join(root, 'spec/a_spec.rb'), 'abc');
fs.writeFileSync(path.join(root, 'spec/b/c_spec.rb'), '');

/** A lister in node: writes `answer` to RUN_TESTS_UNITS_OUT (unless null), prints, exits. */
const node = (answer: unknown, code = 0) => ({
  argv: [process.execPath, '-e', `const a = ${JSON.stringify(answer)}; if (a !== null) require('fs').writeFileSync(process.env.RUN_TESTS_UNITS_OUT, JSON.stringify(a)); console.log('said on stdout'); console.error('said on stderr'); process.exit(${code})`],
  cwd: root,
  env: process.env,
  what: "the node lister's files",
});

async function failure(promise: Promise<unknown>): Promise<HarnessError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HarnessError) return error;
    throw error;
  }
  throw new Error('it did not fail');
}

describe('shardUnits', () => {
  it('names each file once, root-relative and sorted, with its size', () => {
    expect(shardUnits(root, [path.join(root, 'spec/b/c_spec.rb'), 'spec/a_spec.rb', './spec/a_spec.rb'])).toEqual([
      { name: 'spec/a_spec.rb', bytes: 3 },
      { name: 'spec/b/c_spec.rb', bytes: 0 },
    ]);
  });

  it('refuses a file outside the project, which cannot be given back as an operand', () => {
    expect(() => shardUnits(root, ['/elsewhere/x_spec.rb'])).toThrow(`--shard: the suite runs /elsewhere/x_spec.rb, which is outside the project (${root})`);
  });
});

describe('listedUnits', () => {
  it('reads the files from the answer file, whatever the project printed', async () => {
    expect(await listedUnits(root, node({ files: ['spec/b/c_spec.rb', path.join(root, 'spec/a_spec.rb')] }))).toEqual([
      { name: 'spec/a_spec.rb', bytes: 3 },
      { name: 'spec/b/c_spec.rb', bytes: 0 },
    ]);
  });

  it('a refusal is a usage error saying why', async () => {
    const error = await failure(listedUnits(root, node({ refused: 'its task decides' })));
    expect([error.code, error.message]).toEqual(['USAGE', '--shard: its task decides']);
  });

  it('a lister that fails, or leaves no answer, is RUNNER_FAILED quoting its last lines; an exit it allows is not', async () => {
    const failed = await failure(listedUnits(root, node({ files: [] }, 3)));
    // Two pipes: which line comes first is the OS's choice.
    expect([failed.code, failed.message.split('\n')[0], failed.message.split('\n').slice(1).sort()])
      .toEqual(['RUNNER_FAILED', "--shard: listing the node lister's files failed (exit 3):", ['said on stderr', 'said on stdout']]);
    expect((await failure(listedUnits(root, node(null)))).code).toBe('RUNNER_FAILED');
    expect(await listedUnits(root, { ...node({ files: ['spec/a_spec.rb'] }, 2), okCodes: [2] })).toEqual([{ name: 'spec/a_spec.rb', bytes: 3 }]);
  });

  it('a missing interpreter is RUNNER_MISSING', async () => {
    const error = await failure(listedUnits(root, { ...node(null), argv: ['/nonexistent/ruby', 'x.rb'] }));
    expect(error.code).toBe('RUNNER_MISSING');
  });
});
