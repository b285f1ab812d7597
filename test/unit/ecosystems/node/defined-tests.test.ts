import { describe, expect, it } from '@jest/globals';
import { testsAtLine } from '../../../../src/ecosystems/node/defined-tests.js';

const names = (source: string, line: number): string[] => testsAtLine(source, 'x.test.js', line).map((chain) => chain.map((b) => `${b.kind}:${b.name}`).join(' / '));

const SOURCE = `const { describe, it } = require('node:test');
// it('in a comment', () => {})
describe("outer", () => {
  const re = /\\)it\\(/; const s = ')'; const t = \`)\${ "(" })\`;
  it('first', () => {
    expect(1 / 2).toBe(0.5);
  });

  describe.only(\`inner\`, function () {
    test.skip('second', async () => {});
    it("third \\"quoted\\"", () => {}); it('fourth', () => {});
  });
});
test(
  'multi-line call',
  () => {},
);
it('a' + suffix, () => {});
it(\`n=\${n}\`, () => {});
test.each([1])('each %i', () => {});
t.test('a subtest is not a test call', () => {});
`;

describe('testsAtLine', () => {
  it('finds the test whose call spans the line, skipping strings, templates, regexps and comments', () => {
    expect(names(SOURCE, 6)).toEqual(['suite:outer / test:first']);
    expect(names(SOURCE, 5)).toEqual(['suite:outer / test:first']);
    expect(names(SOURCE, 10)).toEqual(['suite:outer / suite:inner / test:second']);
    expect(names(SOURCE, 16)).toEqual(['test:multi-line call']);
  });

  it("a suite's other lines are every test in it; two calls on a line are the suite's", () => {
    expect(names(SOURCE, 9)).toEqual(['suite:outer / suite:inner / test:second', 'suite:outer / suite:inner / test:third "quoted"', 'suite:outer / suite:inner / test:fourth']);
    expect(names(SOURCE, 4)).toHaveLength(4);
  });

  it('refuses a line outside every call and a computed name', () => {
    expect(() => names(SOURCE, 1)).toThrow('no test or suite is defined at x.test.js:1');
    expect(() => names(SOURCE, 2)).toThrow('no test or suite is defined at x.test.js:2');
    for (const line of [18, 19, 20]) expect(() => names(SOURCE, line)).toThrow(`the test at x.test.js:${line} has a name computed when it runs`);
    expect(() => names(SOURCE, 21)).toThrow('no test or suite is defined at x.test.js:21');
  });
});
