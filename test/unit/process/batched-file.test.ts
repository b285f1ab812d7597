import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatchedFile } from '../../../src/process/batched-file.js';
import { removeTempDirs, tempDir, waitFor } from './helpers.js';

afterAll(removeTempDirs);

describe('BatchedFile', () => {
  it('writes many small appends in order, and everything by close', async () => {
    const path = join(tempDir(), 'out.log');
    const file = new BatchedFile(openSync(path, 'w'));
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`);
    for (const line of lines) file.write(line);
    await file.close();
    expect(readFileSync(path, 'utf8')).toBe(lines.join(''));
  });

  it('puts bytes on disk soon after they come, without a close', async () => {
    const path = join(tempDir(), 'out.log');
    const file = new BatchedFile(openSync(path, 'w'));
    file.write('first\n');
    await waitFor('first line on disk', () => existsSync(path) && statSync(path).size === 6, 2000);
    file.write('second\n');
    await waitFor('second line on disk', () => statSync(path).size === 13, 2000);
    expect(readFileSync(path, 'utf8')).toBe('first\nsecond\n');
    await file.close();
  });

  it('reports a full queue, and drains it', async () => {
    const path = join(tempDir(), 'out.log');
    const file = new BatchedFile(openSync(path, 'w'));
    const block = Buffer.alloc(256 * 1024, 'x');
    const results = [1, 2, 3, 4, 5].map(() => file.write(block));
    expect(results).toContain(false);
    await new Promise<void>((resolve) => file.onDrain(resolve));
    await file.close();
    expect(statSync(path).size).toBe(5 * block.length);
  });

  it('rejects close with the write error, and drops later writes', async () => {
    const path = join(tempDir(), 'read-only.log');
    writeFileSync(path, '');
    const file = new BatchedFile(openSync(path, 'r')); // a descriptor that cannot be written
    file.write('lost\n');
    await expect(file.close()).rejects.toThrow(/EBADF/);
    expect(file.failed?.message).toMatch(/EBADF/);
    expect(file.write('also lost\n')).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('');
  });
});
