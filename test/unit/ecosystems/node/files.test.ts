import { describe, expect, it } from '@jest/globals';
import { mochaTestFile } from '../../../../src/runners/mocha/spec.js';
import { expandDirectories, fileOperand, isNodeTestFile } from '../../../../src/ecosystems/node/files.js';
import { factsFromFiles } from '../../../../src/project/facts.js';

const TREE = {
  'package.json': '{}',
  'tests/a.test.js': '',
  'tests/lib/b.test.cjs': '',
  'tests/lib/helpers.js': '',
  'tests/lib/node_modules/x/c.test.js': '',
  'test/fixtures/data.js': '',
};

describe('file operands', () => {
  it('never lets a file read as an option', () => {
    expect(['--test-only.test.js', '-x', 'a/b.js', './c.js', '/abs/d.js'].map(fileOperand)).toEqual(['./--test-only.test.js', './-x', './a/b.js', './c.js', '/abs/d.js']);
  });

  it("expands a directory to node --test's files below it, and keeps files and empty directories as given", () => {
    const facts = factsFromFiles('/p', { ...TREE, 'empty/.keep': '' });
    expect(expandDirectories(facts, ['tests', 'test'], isNodeTestFile)).toEqual(['tests/a.test.js', 'tests/lib/b.test.cjs', 'test/fixtures/data.js']);
    expect(expandDirectories(facts, ['tests/lib/helpers.js', 'empty'], isNodeTestFile)).toEqual(['tests/lib/helpers.js', 'empty']);
  });

  it("takes mocha's test files from the script's spec globs, else every script with its extensions", () => {
    const facts = factsFromFiles('/p', TREE);
    expect(expandDirectories(facts, ['tests/lib'], mochaTestFile(facts, ['--require', 'tests/lib/helpers.js', 'tests/**/*.test.{js,cjs}']))).toEqual(['tests/lib/b.test.cjs']);
    expect(expandDirectories(facts, ['tests'], mochaTestFile(facts, ['--spec=tests/lib', '--extension', 'cjs']))).toEqual(['tests/lib/b.test.cjs']);
    expect(expandDirectories(facts, ['tests'], mochaTestFile(facts, []))).toEqual(['tests/a.test.js', 'tests/lib/b.test.cjs', 'tests/lib/helpers.js']);
    const rc = factsFromFiles('/p', { ...TREE, '.mocharc.json': '{"spec": "tests/*.test.js"}' });
    expect(expandDirectories(rc, ['tests'], mochaTestFile(rc, []))).toEqual(['tests/a.test.js']);
  });
});
