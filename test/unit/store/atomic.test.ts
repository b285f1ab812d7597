import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAppend, openFresh, openRead, writeFileAtomic } from '../../../src/store/atomic.js';
import { checkArtifactsDir, clearArtifacts, ensureDir, foreignLinks } from '../../../src/store/artifacts.js';

const dir = fs.mkdtempSync(join(tmpdir(), 'run-tests-atomic-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A fresh directory, a file outside it with known bytes, and a name in the directory. */
function setup(): { inside: string; target: string; name: string } {
  const inside = join(dir, `case-${n++}`);
  fs.mkdirSync(inside);
  const target = join(inside, '..', `target-${n}`);
  fs.writeFileSync(target, 'precious\n');
  return { inside, target, name: join(inside, 'artifact') };
}

const write = (fd: number, text: string): void => {
  fs.writeSync(fd, text);
  fs.closeSync(fd);
};

describe('the no-follow write primitives', () => {
  it('writeFileAtomic replaces a link, or a hard link, and leaves what it pointed at alone', () => {
    for (const make of [fs.symlinkSync, fs.linkSync]) {
      const { target, name } = setup();
      make(target, name);
      writeFileAtomic(name, 'new\n');
      expect([fs.readFileSync(target, 'utf8'), fs.readFileSync(name, 'utf8'), fs.lstatSync(name).isFile()]).toEqual(['precious\n', 'new\n', true]);
      expect(fs.readdirSync(join(name, '..'))).toEqual(['artifact']);
    }
  });

  it('openFresh replaces a link, a hard link or a named pipe with a new file', () => {
    const makers = [fs.symlinkSync, fs.linkSync, (_: string, name: string) => spawnSync('mkfifo', [name])];
    for (const make of makers) {
      const { target, name } = setup();
      make(target, name);
      write(openFresh(name), 'log\n');
      expect([fs.readFileSync(target, 'utf8'), fs.readFileSync(name, 'utf8')]).toEqual(['precious\n', 'log\n']);
    }
  });

  it('openAppend refuses a link, a hard link and a named pipe, without waiting on the pipe; openRead a link and a pipe', () => {
    const cases: [(target: string, name: string) => unknown, RegExp, boolean][] = [
      [fs.symlinkSync, /ELOOP/, true],
      [fs.linkSync, /is a hard link \(2 names\)/, false],
      // Opening a pipe to write with no reader fails at once (ENXIO); with a reader it is refused as not a file.
      [(_, name) => spawnSync('mkfifo', [name]), /ENXIO|is not a regular file/, true],
    ];
    for (const [make, error, readToo] of cases) {
      const { target, name } = setup();
      make(target, name);
      expect(() => openAppend(name)).toThrow(error);
      if (readToo) expect(() => openRead(name)).toThrow(error);
      expect(fs.readFileSync(target, 'utf8')).toBe('precious\n');
    }
  });

  it('openAppend appends to a file of its own', () => {
    const { name } = setup();
    write(openAppend(name), 'a\n');
    write(openAppend(name), 'b\n');
    expect(fs.readFileSync(name, 'utf8')).toBe('a\nb\n');
  });
});

describe('the artifacts directory', () => {
  it('refuses a link or a file where the directory goes, and creates a missing one', () => {
    const { inside, target } = setup();
    const link = join(inside, 'link');
    fs.symlinkSync(inside, link);
    expect(() => ensureDir(link)).toThrow(expect.objectContaining({ code: 'STORE_UNUSABLE', message: expect.stringContaining(`${link} is a symbolic link (to ${inside})`) }));
    expect(() => checkArtifactsDir(target)).toThrow(expect.objectContaining({ code: 'STORE_UNUSABLE', message: expect.stringContaining(`${target} is not a directory`) }));
    ensureDir(join(inside, 'new'));
    expect(fs.lstatSync(join(inside, 'new')).isDirectory()).toBe(true);
  });

  it('clears links and hard links where files go, saying so, and refuses a directory there', () => {
    const { inside, target, name } = setup();
    fs.symlinkSync(target, name);
    const plain = join(inside, 'plain');
    fs.writeFileSync(plain, 'old\n');
    const hard = join(inside, 'hard');
    fs.linkSync(target, hard);
    expect(foreignLinks([name, plain])).toEqual([`${name} was a symbolic link (to ${target}); run-tests replaces it with its own file (what it pointed at is unchanged)`]);
    expect(clearArtifacts([name, plain, hard, join(inside, 'missing')])).toEqual([
      `${name} was a symbolic link (to ${target}); run-tests removed it rather than write through it (what it pointed at is unchanged)`,
      `${hard} was a hard link to a file with another name; run-tests removed it rather than write through it (what it pointed at is unchanged)`,
    ]);
    expect([fs.existsSync(name), fs.existsSync(plain), fs.existsSync(hard), fs.readFileSync(target, 'utf8')]).toEqual([false, false, false, 'precious\n']);
    expect(() => clearArtifacts([inside])).toThrow(expect.objectContaining({ code: 'STORE_UNUSABLE' }));
  });
});
