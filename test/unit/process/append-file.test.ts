import { afterAll, describe, expect, it } from '@jest/globals';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppendFile } from '../../../src/process/append-file.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterAll(removeTempDirs);

describe('AppendFile', () => {
  it('appends strings and buffers in order, each on disk when write() returns', () => {
    const path = join(tempDir(), 'log.txt');
    const file = new AppendFile(openSync(path, 'a'));
    file.write('one\n');
    expect(readFileSync(path, 'utf8')).toBe('one\n');
    file.write(Buffer.from('two ✓\n'));
    file.close();
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo ✓\n');
  });

  it('keeps the first error, drops later writes, and throws it on close', () => {
    const path = join(tempDir(), 'log.txt');
    const fd = openSync(path, 'a');
    const file = new AppendFile(fd);
    file.write('kept\n');
    closeSync(fd); // the descriptor goes bad under it
    file.write('lost\n');
    expect(file.failed).toMatchObject({ code: 'EBADF' });
    file.write('also lost\n');
    expect(() => file.close()).toThrow(/EBADF/);
    expect(readFileSync(path, 'utf8')).toBe('kept\n');
  });
});
