/** rubyChanges on small projects read by the project's Ruby: what is decided before the
 * graph, and files outside the project. */
import { describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { rubyChanges } from '../../../../src/ecosystems/ruby-changes/affected.js';
import { readProjectFacts } from '../../../../src/project/facts.js';
import type { AffectedUnits, ChangedFile } from '../../../../src/runners/types.js';
import { gitRepo } from '../../../support/git-repo.js';
import { hasTools, REPO } from '../../../e2e/helpers.js';

const suite = hasTools('ruby') ? describe : describe.skip;

suite('rubyChanges', () => {
  const top = gitRepo({
    'p/Gemfile.lock': 'PATH\n  remote: ../engine\n  specs:\n    engine (0.1)\n\nGEM\n  specs:\n',
    'p/spec/money_spec.rb': 'require "money"\n',
    'p/spec/tax_spec.rb': 'require_relative "../../shared/tax"\n',
    'p/spec/plain_spec.rb': 'require "json"\n',
    'p/lib/unused.rb': '',
    'shared/money.rb': '', 'shared/tax.rb': '', 'shared/other.rb': '', 'engine/lib/engine.rb': '',
  });
  const root = path.join(top, 'p');
  const units = ['spec/money_spec.rb', 'spec/plain_spec.rb', 'spec/tax_spec.rb'].map((name) => ({ name, bytes: 1 }));
  const affected = (changed: ChangedFile[], only = units): Promise<AffectedUnits> => rubyChanges().affected({
    root, facts: readProjectFacts(root), files: [], env: {}, reportersDir: path.join(REPO, 'reporters'), changed, units: only,
  });
  const modified = (...paths: string[]): ChangedFile[] => paths.map((p) => ({ path: p, change: 'modified' }));

  it('places a changed Ruby file outside the project by the loads that name it, and cannot see past one that did not change', async () => {
    expect(await affected(modified('../shared/tax.rb', '../shared/other.rb', '../README.md'))).toEqual({ units: [{ unit: 'spec/tax_spec.rb', reasons: ['requires ../shared/tax.rb'] }] });
    // require "money" may be ../shared/money.rb on an -I directory; tax.rb, unchanged, is not read.
    expect(await affected(modified('../shared/money.rb'))).toEqual({ wholeSuite: 'spec/tax_spec.rb loads ../shared/tax.rb, outside the project, where the graph does not follow' });
    expect(await affected(modified('../shared/money.rb'), units.slice(0, 2))).toEqual({ units: [{ unit: 'spec/money_spec.rb', reasons: ['requires ../shared/money.rb'] }] });
    expect(await affected([{ path: '../shared/tax.rb', change: 'deleted' }])).toEqual({ wholeSuite: '../shared/tax.rb was deleted, and spec/tax_spec.rb loads it' });
    expect(await affected(modified('../engine/lib/engine.rb'))).toEqual({ wholeSuite: '../engine/lib/engine.rb is in a gem the Gemfile takes from ../engine: every test may load it' });
  });

  it('selects nothing, without reading a file, for a change outside that no Ruby file can be', async () => {
    // With no reporters to read files by, reading any would fail.
    expect(await rubyChanges().affected({ root, facts: readProjectFacts(root), files: [], env: {}, reportersDir: '/nowhere', changed: modified('../README.md', '../shared/data.yml'), units }))
      .toEqual({ units: [] });
    await expect(rubyChanges().affected({ root, facts: readProjectFacts(root), files: [], env: {}, reportersDir: '/nowhere', changed: modified('../shared/x.rb'), units }))
      .rejects.toThrow(/reading the Ruby sources failed/);
  });

  it('selects nothing for a file no test loads, and says which files it does not read', async () => {
    expect(await affected(modified('lib/unused.rb'))).toEqual({ units: [] });
    expect(await affected(modified('tmp/cache.rb'))).toEqual({ wholeSuite: 'tmp/cache.rb is in a directory the graph does not read' });
  });
});
