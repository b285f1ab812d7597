import { describe, expect, it } from '@jest/globals';
import { ProjectsProgress, sumProgress } from '../../../src/core/projects-progress.js';
import type { Progress, ProgressSink } from '../../../src/model/progress.js';
import type { FailedTest } from '../../../src/model/results.js';

const progress = (finished: number, more: Partial<Progress> = {}): Progress => ({ finished, failed: 0, skipped: 0, total: null, files: null, ...more });

/** A sink that records what it was told. */
function recorder(): ProgressSink & { told: string[] } {
  const told: string[] = [];
  return {
    told,
    update: (p) => void told.push(`update ${JSON.stringify(p)}`),
    failure: (t) => void told.push(`failure ${t.name} ${t.file}:${t.line}`),
    end: () => void told.push('end'),
  };
}

const failed = (name: string, file: string | null, line: number | null): FailedTest => ({ id: name, name, file, line, status: 'failed', message: 'boom' });

describe('sumProgress', () => {
  it('sums the counts of the projects that reported', () => {
    expect(sumProgress([progress(3, { failed: 1, skipped: 2 }), progress(4, { failed: 2 }), null])).toEqual({ finished: 7, failed: 3, skipped: 2, total: null, files: null });
  });

  it('knows a total only when every project announced one, files likewise', () => {
    expect(sumProgress([progress(1, { total: 5 }), progress(2, { total: 7 })]).total).toBe(12);
    expect(sumProgress([progress(1, { total: 5 }), null]).total).toBeNull();
    expect(sumProgress([progress(1, { total: 5 }), progress(2)]).total).toBeNull();
    const files = { done: 1, total: 3 };
    expect(sumProgress([progress(1, { files }), progress(2, { files: { done: 2, total: 2 } })]).files).toEqual({ done: 3, total: 5 });
    expect(sumProgress([progress(1, { files }), progress(2)]).files).toBeNull();
  });

  it('never takes an unknown count of failures or skips for 0', () => {
    expect(sumProgress([progress(3, { failed: 1 }), progress(2, { failed: null, skipped: null })])).toMatchObject({ finished: 5, failed: null, skipped: null });
  });
});

describe('ProjectsProgress', () => {
  it('tells one sink the counts of all projects on every update, failures from the invocation directory, and ends once', () => {
    const sink = recorder();
    const live = new ProjectsProgress(sink, ['/m/api', '/m/web'], '/m');
    const [api, web] = [live.of(0), live.of(1)];
    api.update(progress(2, { total: 4 }));
    web.failure(failed('adds', 'test/a.test.js', 7));
    api.failure(failed('boots', null, null));
    web.update(progress(1, { failed: 1, total: 3 }));
    api.end();
    web.end();
    live.end();
    expect(sink.told).toEqual([
      `update ${JSON.stringify({ finished: 2, failed: 0, skipped: 0, total: null, files: null })}`,
      'failure adds web/test/a.test.js:7',
      'failure boots api:null',
      `update ${JSON.stringify({ finished: 3, failed: 1, skipped: 0, total: 7, files: null })}`,
      'end',
    ]);
  });
});
