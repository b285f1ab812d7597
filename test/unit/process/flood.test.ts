import { afterAll, describe, expect, it } from '@jest/globals';
import { statSync } from 'node:fs';
import { startProcess } from '../../../src/process/index.js';
import { nodeScript, removeTempDirs } from './helpers.js';

afterAll(removeTempDirs);

const MIB = 1024 * 1024;

describe('startProcess: large output', () => {
  it('streams 200 MiB to disk with flat memory', async () => {
    const options = nodeScript('flood.js', ['200']);
    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 20);
    const outcome = await startProcess(options).done.finally(() => clearInterval(sampler));
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
    expect(outcome).toEqual({
      exitCode: 0,
      signal: null,
      timedOut: false,
      interrupted: false,
      leaked: [],
      durationMs: expect.any(Number),
    });
    expect(statSync(options.logPath).size).toBe(200 * MIB);
    const grewMiB = (rssPeak - rssBefore) / MIB;
    console.log(`flood: 200 MiB in ${Math.round(outcome.durationMs)}ms; test process RSS grew ${grewMiB.toFixed(1)} MiB`);
    expect(grewMiB).toBeLessThan(100);
  });
});
