import { describe, expect, it } from '@jest/globals';
import { unrunWarnings } from '../../../src/core/unrun.js';

describe('unrunWarnings', () => {
  const selection = { root: '/m', subprojects: [{ root: '/m/web', runner: 'jest' }, { root: '/m/tools/my lint', runner: 'pytest' }, { root: '/m/api', runner: 'go' }] };

  it('names the projects below of another runner than the one that ran, with a command that runs them', () => {
    expect(unrunWarnings(selection, '/m', 'go')).toEqual([
      "not run: 2 projects of their own below this directory, not go's: web (jest), tools/my lint (pytest); run them with `run-tests web 'tools/my lint'`",
    ]);
    expect(unrunWarnings(selection, '/', null)).toEqual([
      'not run: 3 projects of their own below m, which has no runner: m/web (jest), m/tools/my lint (pytest), m/api (go); run them with `run-tests m/web \'m/tools/my lint\' m/api`',
    ]);
    expect(unrunWarnings({ ...selection, subprojects: [{ root: '/m/web', runner: 'jest' }] }, '/m', 'go')).toEqual([
      "not run: a project of its own below this directory, not go's: web (jest); run it with `run-tests web`",
    ]);
  });

  it('says nothing when the runner that ran is theirs, or there are none', () => {
    expect(unrunWarnings({ ...selection, subprojects: [{ root: '/m/api', runner: 'go' }] }, '/m', 'go')).toEqual([]);
    expect(unrunWarnings({ root: '/m', subprojects: [] }, '/m', null)).toEqual([]);
  });
});
