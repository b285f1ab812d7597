import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { startLiveCount } from '../../../src/core/live-count.js';
import { waitFor } from '../../support/wait.js';

describe('startLiveCount', () => {
  it('follows the report as it grows and counts only complete test lines', async () => {
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-live-')), 'events.jsonl');
    let shown = '';
    const out = { write: (text: string) => { shown += text; return true; } } as unknown as NodeJS.WriteStream;
    const stop = startLiveCount(file, (line) => line.startsWith('{"type":"test"'), out);
    await fs.writeFile(file, '{"type":"start"}\n{"type":"test","n":1}\n{"type":"test","n":2}\n{"type":"te');
    await waitFor('a count of 2', () => shown.endsWith('2 tests finished…'), 5000);
    await fs.appendFile(file, 'st","n":3}\n');
    await waitFor('a count of 3', () => shown.endsWith('3 tests finished…'), 5000);
    stop();
    expect(shown.endsWith('\r\u001b[2K')).toBe(true);
    expect(shown).not.toContain('1 tests');
  });
});
