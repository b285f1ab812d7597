import { describe, expect, it } from '@jest/globals';
import { factsFromFiles } from '../../../../src/project/facts.js';
import { chooseNodeRunner, escapeJsRegex, rerunSelections, testScript } from '../../../../src/ecosystems/node/project.js';
import { shellWords } from '../../../../src/project/command-line.js';
import type { FailedTestRecord } from '../../../../src/model/results.js';

const pkg = (value: Record<string, unknown>): string => JSON.stringify(value);
const choose = (files: Record<string, string>) => chooseNodeRunner(factsFromFiles('/p', files));
const record = (file: string | null, name: string, id = `${file}::${name}`): FailedTestRecord => ({ test_name: name, file, line: 1, status: 'failed', message: 'm', id });
/** A file-level entry: a load error or a failed hook, whose id is its file. */
const fileLevel = (file: string, name = `load error: ${file}`): FailedTestRecord => record(file, name, file);

describe('chooseNodeRunner', () => {
  it('prefers a dependency in the order vitest, jest, mocha', () => {
    expect(choose({ 'package.json': pkg({ devDependencies: { jest: '1', vitest: '1', mocha: '1' } }) }))
      .toEqual({ id: 'vitest', reason: 'package.json lists vitest in devDependencies' });
    expect(choose({ 'package.json': pkg({ dependencies: { mocha: '1' }, devDependencies: { jest: '1' } }) })?.id).toBe('jest');
    expect(choose({ 'package.json': pkg({ dependencies: { mocha: '1' } }) })).toEqual({ id: 'mocha', reason: 'package.json lists mocha in dependencies' });
  });

  it('then a config file, then a "jest" section', () => {
    expect(choose({ 'package.json': pkg({}), 'jest.config.ts': '' })).toEqual({ id: 'jest', reason: 'jest.config.ts found' });
    expect(choose({ 'package.json': pkg({}), 'vitest.config.mts': '', 'jest.config.js': '' })?.id).toBe('vitest');
    expect(choose({ 'package.json': pkg({ jest: {} }) })).toEqual({ id: 'jest', reason: 'package.json has a "jest" section' });
    expect(choose({ 'package.json': pkg({ scripts: { test: 'vitest run' } }) })).toEqual({ id: 'vitest', reason: 'scripts.test runs vitest' });
  });

  it('takes what scripts.test runs before any dependency or config file (a dependency may serve an example)', () => {
    expect(choose({ 'package.json': pkg({ scripts: { test: 'node --test dist/test/*.js' }, devDependencies: { jest: '1' } }), 'jest.config.js': '' }))
      .toEqual({ id: 'node-test', reason: 'scripts.test runs node --test' });
    expect(choose({ 'package.json': pkg({ scripts: { test: 'tsc && npm run unit', unit: 'mocha' }, devDependencies: { vitest: '1' } }) })?.id).toBe('mocha');
    // A script that runs no runner leaves the choice to the dependencies.
    expect(choose({ 'package.json': pkg({ scripts: { test: 'make test' }, devDependencies: { jest: '1' } }) })?.id).toBe('jest');
  });

  it('falls back to node --test only with test files, and needs a package.json', () => {
    expect(choose({ 'package.json': pkg({}), 'test/a.test.js': '' })?.id).toBe('node-test');
    expect(choose({ 'package.json': pkg({}), 'tests/unit/a.test.mjs': '' })).toEqual({ id: 'node-test', reason: 'no runner in package.json; test files found (tests/unit/a.test.mjs): node --test' });
    expect(choose({ 'package.json': pkg({}), '__tests__/a_test.cjs': '' })?.id).toBe('node-test');
    // node --test would not run them: not test files by name, and not under test/.
    expect(choose({ 'package.json': pkg({}), 'tests/helpers.js': '', '__tests__/a.js': '' })).toBeNull();
    expect(choose({ 'package.json': pkg({}) })).toBeNull();
    expect(choose({ 'jest.config.js': '' })).toBeNull();
  });
});

describe('testScript', () => {
  it('keeps env assignments, cross-env and the runner arguments', () => {
    expect(testScript({ scripts: { test: 'NODE_ENV=test TZ=UTC jest --ci' } }))
      .toEqual({ runner: 'jest', env: { NODE_ENV: 'test', TZ: 'UTC' }, nodeArgs: [], args: ['--ci'], note: null });
    expect(testScript({ scripts: { test: 'cross-env GREETING=hello vitest run --pool threads' } }))
      .toEqual({ runner: 'vitest', env: { GREETING: 'hello' }, nodeArgs: [], args: ['run', '--pool', 'threads'], note: null });
  });

  it('reads `node [flags] path/to/jest.js [args]`', () => {
    expect(testScript({ scripts: { test: 'node --experimental-vm-modules node_modules/jest/bin/jest.js -i' } }))
      .toEqual({ runner: 'jest', env: {}, nodeArgs: ['--experimental-vm-modules'], args: ['-i'], note: null });
    expect(testScript({ scripts: { test: 'NODE_OPTIONS=--experimental-vm-modules npx jest' } }))
      .toEqual({ runner: 'jest', env: { NODE_OPTIONS: '--experimental-vm-modules' }, nodeArgs: [], args: [], note: null });
  });

  it('takes the word after a node flag that has a value for that value, not for the first path', () => {
    expect(testScript({ scripts: { test: 'node --require ./setup.js --test test/' } }))
      .toEqual({ runner: 'node-test', env: {}, nodeArgs: ['--require', './setup.js'], args: ['test/'], note: null });
    expect(testScript({ scripts: { test: 'node -r ./setup.js node_modules/mocha/bin/mocha.js spec' } }))
      .toEqual({ runner: 'mocha', env: {}, nodeArgs: ['-r', './setup.js'], args: ['spec'], note: null });
  });

  it('unquotes words the way a shell would', () => {
    expect(testScript({ scripts: { test: `jest -t "adds [one]" --testPathIgnorePatterns='e2e dir'` } }).args)
      .toEqual(['-t', 'adds [one]', '--testPathIgnorePatterns=e2e dir']);
    expect(shellWords(`a "b \\"c\\"" 'd e' f\\ g`)).toEqual(['a', 'b "c"', 'd e', 'f g']);
    expect(shellWords('a "unterminated')).toBeNull();
  });

  it('takes the runner from the first command of a chain that runs one, following npm run', () => {
    expect(testScript({ scripts: { test: 'node --test && npm run check:types', 'check:types': 'tsc' } }))
      .toEqual({ runner: 'node-test', env: {}, nodeArgs: [], args: [], note: 'scripts.test ("node --test && npm run check:types") runs node --test; run-tests runs only that command, with its arguments: the rest is not run' });
    const scripts = { test: 'npm run test:types && npm run test:unit', 'test:types': 'tsc', 'test:unit': 'TZ=UTC mocha "tests/**/*.test.{js,cjs}"' };
    expect(testScript({ scripts })).toEqual({
      runner: 'mocha', env: { TZ: 'UTC' }, nodeArgs: [], args: ['tests/**/*.test.{js,cjs}'],
      note: 'scripts.test ("npm run test:types && npm run test:unit") runs mocha through scripts["test:unit"]; run-tests runs only that command, with its arguments: the rest is not run',
    });
    expect(testScript({ scripts: { test: 'yarn unit -- --ci', unit: 'jest' } }))
      .toMatchObject({ runner: 'jest', args: ['--ci'], note: 'scripts.test ("yarn unit -- --ci") runs jest through scripts["unit"]; run-tests runs it directly, with its arguments' });
    // A loop, a flag that changes what npm runs, and quoted shell syntax.
    expect(testScript({ scripts: { test: 'npm run a', a: 'npm run test' } }).runner).toBeNull();
    expect(testScript({ scripts: { test: 'npm test --workspaces', a: 'jest' } }).runner).toBeNull();
    expect(testScript({ scripts: { test: 'jest -t "a | b; c"' } })).toMatchObject({ runner: 'jest', args: ['-t', 'a | b; c'], note: null });
    expect(testScript({ scripts: { test: 'jest -t "$NAME"' } }).runner).toBeNull();
  });

  it('says why a shell chain or an unknown command is not used as it stands', () => {
    const pipe = testScript({ scripts: { test: 'jest | tee out' } });
    expect([pipe.runner, pipe.note]).toEqual([null, 'scripts.test is a shell command line ("jest | tee out"); run-tests runs the runner directly instead']);
    expect(testScript({ scripts: { test: 'tsc && eslint .' } }).note).toBe('scripts.test ("tsc && eslint .") runs no runner run-tests knows in any of its commands; it runs the detected runner directly');
    expect(testScript({ scripts: { test: 'make test' } }).note).toBe('scripts.test runs "make", not a runner run-tests knows; it runs the detected runner directly');
    expect(testScript({})).toEqual({ runner: null, env: {}, nodeArgs: [], args: [], note: null });
  });
});

describe('escapeJsRegex', () => {
  it('matches the text literally, brackets and parentheses included', () => {
    const name = 'fails [with] (brackets) a.b* c+? ^$ {1} | / \\';
    expect(new RegExp(`^${escapeJsRegex(name)}$`).test(name)).toBe(true);
    expect(new RegExp(`^${escapeJsRegex(name)}$`, 'u').test(name)).toBe(true);
    expect(new RegExp(escapeJsRegex('a.b')).test('axb')).toBe(false);
  });
});

describe('rerunSelections (jest and vitest)', () => {
  it('selects test entries by their files and an anchored alternation of their space-joined names', () => {
    const selections = rerunSelections([record('a.test.js', 'math › add (1) › [x]'), record('b.test.js', 'top'), record('a.test.js', 'math › add (1) › [x]')], ' › ');
    expect(selections).toEqual([{ files: ['a.test.js', 'b.test.js'], name: '^(?:math add \\(1\\) \\[x\\]|top)$' }]);
    const name = new RegExp(selections[0]?.name ?? '', 'i');
    expect([name.test('math add (1) [x]'), name.test('top'), name.test('math add (1) [x] and more'), name.test('a top')]).toEqual([true, true, false, false]);
  });

  it('runs file-level entries whole in a second selection, beside the exact one', () => {
    expect(rerunSelections([fileLevel('broken.test.ts'), record('m.test.ts', 'math > adds'), fileLevel('hook.test.ts', 'store > when connected')], ' > ')).toEqual([
      { files: ['m.test.ts'], name: '^(?:math adds)$' },
      { files: ['broken.test.ts', 'hook.test.ts'], name: null },
    ]);
  });

  it('runs a file with both a file-level entry and test entries whole, once, and none of its names in the pattern', () => {
    expect(rerunSelections([record('hooks.test.js', 'plain'), fileLevel('hooks.test.js'), record('other.test.js', 'fails')], ' › ')).toEqual([
      { files: ['other.test.js'], name: '^(?:fails)$' },
      { files: ['hooks.test.js'], name: null },
    ]);
  });

  it('is one selection when only file-level entries failed', () => {
    expect(rerunSelections([fileLevel('a.test.js'), fileLevel('b.test.js')], ' › ')).toEqual([{ files: ['a.test.js', 'b.test.js'], name: null }]);
  });

  it('selects every file for a failure tied to no file: by the names, or whole beside a file-level entry', () => {
    expect(rerunSelections([record(null, 'unhandled error', 'unhandled error'), record('a.test.ts', 'x')], ' > ')).toEqual([{ files: [], name: '^(?:unhandled error|x)$' }]);
    expect(rerunSelections([record(null, 'unhandled error', 'unhandled error'), fileLevel('a.test.ts')], ' > ')).toEqual([{ files: [], name: null }]);
  });
});
