import { describe, expect, it } from '@jest/globals';
import { planChange } from '../../../../src/core/change/plan.js';
import type { Change } from '../../../../src/model/request.js';
import { HarnessError } from '../../../../src/model/errors.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import type { AffectedRequest, AffectedUnits, Runner } from '../../../../src/runners/types.js';
import { gitRepo } from '../../../support/git-repo.js';

const dir = gitRepo({ 'package.json': '{}' });
const UNITS = ['test/a.test.js', 'test/b.test.js'];

/** A runner whose graph answers `answer` and records what it was asked. */
function runner(answer: (request: AffectedRequest) => AffectedUnits | Promise<AffectedUnits>, units: () => Promise<string[]> = async () => UNITS): Runner & { asked: AffectedRequest[] } {
  const asked: AffectedRequest[] = [];
  return {
    asked,
    id: 'fake', markers: [], lookingFor: '', installHint: '',
    detect: () => null,
    plan: () => { throw new Error('not planned here'); },
    shard: { selects: 'files', units: async () => (await units()).map((name) => ({ name, bytes: 1 })) },
    changes: { affected: async (request) => { asked.push(request); return answer(request); } },
  };
}

const change = (files: Change['files'], top = dir): Change => ({ top, base: 'b'.repeat(40), head: 'h'.repeat(40), ref: null, files, tree: `sha256:${'0'.repeat(64)}` });

const plan = (r: Runner, files: Change['files'], within: string[] = [], root = dir) =>
  planChange({ runner: r, root, facts: readProjectFacts(root), change: change(files), env: {}, reportersDir: '/nowhere', runnerArgs: [], within });

describe('planChange', () => {
  it('selects a changed test file and what the graph adds, reasons merged per unit, sorted', async () => {
    const r = runner(() => ({ units: [{ unit: 'test/b.test.js', reasons: ['imports src/a.js'] }, { unit: 'test/a.test.js', reasons: ['imports src/a.js'] }] }));
    const got = await plan(r, [{ path: 'src/a.js', change: 'modified' }, { path: 'test/a.test.js', change: 'modified' }]);
    expect(got.units).toEqual([
      { unit: 'test/a.test.js', reasons: ['changed test file', 'imports src/a.js'] },
      { unit: 'test/b.test.js', reasons: ['imports src/a.js'] },
    ]);
    expect([got.whole_suite, got.changed]).toEqual([null, [{ file: 'src/a.js', change: 'modified' }, { file: 'test/a.test.js', change: 'modified' }]]);
    expect(r.asked.map((a) => [a.changed.map((c) => c.path), a.units.map((u) => u.name), a.files])).toEqual([[['src/a.js', 'test/a.test.js'], UNITS, []]]);
  });

  it('plans nothing, without asking the graph, when no changed file is in the project or in the paths given', async () => {
    const r = runner(() => ({ units: [] }));
    const sub = gitRepo({ 'p/package.json': '{}' });
    const outside = await planChange({ runner: r, root: `${sub}/p`, facts: readProjectFacts(`${sub}/p`), change: change([{ path: 'q/x.js', change: 'modified' }], sub), env: {}, reportersDir: '', runnerArgs: [] });
    expect([outside.units, outside.whole_suite, outside.changed]).toEqual([[], null, []]);
    const limited = await plan(r, [{ path: 'src/a.js', change: 'modified' }], ['lib']);
    expect([limited.units, limited.whole_suite, limited.changed]).toEqual([[], null, []]);
    expect(r.asked).toEqual([]);
  });

  it('gives files outside the project, deleted ones too, as ../ paths to a graph that places them, also alone; never to one that does not', async () => {
    const sub = gitRepo({ 'p/package.json': '{}' });
    const ask = async (r: Runner, files: Change['files']) => planChange({ runner: r, root: `${sub}/p`, facts: readProjectFacts(`${sub}/p`), change: change(files, sub), env: {}, reportersDir: '', runnerArgs: [] });
    const placing = runner(() => ({ units: [{ unit: 'test/a.test.js', reasons: ['imports ../shared/x.js'] }] }));
    const withOutside = { ...placing, changes: { ...placing.changes!, outside: true } };
    const both = await ask(withOutside, [{ path: 'p/src/a.js', change: 'modified' }, { path: 'shared/gone.js', change: 'deleted' }, { path: 'shared/x.js', change: 'modified' }]);
    const alone = await ask(withOutside, [{ path: 'shared/x.js', change: 'modified' }]);
    expect(placing.asked.map((a) => a.changed.map((c) => `${c.path} ${c.change}`))).toEqual([
      ['src/a.js modified', '../shared/gone.js deleted', '../shared/x.js modified'],
      ['../shared/x.js modified'],
    ]);
    expect([both.units, alone.units, alone.changed]).toEqual([[{ unit: 'test/a.test.js', reasons: ['imports ../shared/x.js'] }], [{ unit: 'test/a.test.js', reasons: ['imports ../shared/x.js'] }], []]);
    const local = runner(() => ({ units: [] }));
    const inside = await ask(local, [{ path: 'p/src/a.js', change: 'modified' }, { path: 'shared/x.js', change: 'modified' }]);
    const none = await ask(local, [{ path: 'shared/x.js', change: 'modified' }]);
    expect([local.asked.map((a) => a.changed.map((c) => c.path)), inside.whole_suite, none.units, none.whole_suite]).toEqual([[['src/a.js']], null, [], null]);
  });

  it('is the whole suite, saying why, for a deleted file, a runner without a graph, a failing listing or graph, the graph\'s own verdict, or a unit no listing holds', async () => {
    const modified = [{ path: 'src/a.js', change: 'modified' as const }];
    const whole = async (r: Runner, files: Change['files'] = modified) => {
      const got = await plan(r, files);
      expect(got.units).toEqual([]);
      return got.whole_suite?.reason;
    };
    expect(await whole(runner(() => ({ units: [] })), [{ path: 'src/old.js', change: 'deleted' }, ...modified])).toBe('src/old.js was deleted: what loaded it cannot be told from the tree as it is');
    const { changes: _none, ...blind } = runner(() => ({ units: [] }));
    expect(await whole(blind)).toBe('run-tests cannot tell which fake tests a file can break');
    expect(await whole(runner(() => ({ units: [] }), async () => { throw new HarnessError('RUNNER_FAILED', 'collection failed'); }))).toBe("listing the suite's fake units failed: collection failed");
    expect(await whole(runner(() => { throw new Error('go list: exit 1'); }))).toBe("reading fake's dependency graph failed: go list: exit 1");
    expect(await whole(runner(() => ({ wholeSuite: 'package.json changed' })))).toBe('package.json changed');
    expect(await whole(runner(() => ({ units: [{ unit: 'test/zz.test.js', reasons: ['x'] }] })))).toBe('the graph selected test/zz.test.js, which the suite\'s listing does not hold');
  });

  it('selects nothing when the graph places every changed file in no unit', async () => {
    const got = await plan(runner(() => ({ units: [] })), [{ path: 'src/unused.js', change: 'added' }]);
    expect([got.units, got.whole_suite, got.changed]).toEqual([[], null, [{ file: 'src/unused.js', change: 'added' }]]);
  });
});
