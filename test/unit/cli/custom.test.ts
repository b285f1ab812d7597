import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { parseCustomCommand, shellSyntax } from '../../../src/cli/custom.js';
import { usage } from '../support/usage.js';

const cwd = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-custom-')));
fs.mkdirSync(path.join(cwd, 'reports'));

describe('parseCustomCommand', () => {
  it('splits the command into argv without a shell and resolves the report in cwd', () => {
    expect(parseCustomCommand(`pytest -k 'a or b' "tests/x y.py" --tb=short`, 'junit:out/r.xml', cwd)).toEqual({
      argv: ['pytest', '-k', 'a or b', 'tests/x y.py', '--tb=short'],
      report: { format: 'junit', path: path.join(cwd, 'out/r.xml') },
    });
    expect(parseCustomCommand('node --test --test-reporter=tap', 'tap:-', cwd)).toEqual({
      argv: ['node', '--test', '--test-reporter=tap'], report: { format: 'tap', path: '-' },
    });
    expect(parseCustomCommand('prove -v', `tap:${cwd}/reports/t.tap`, cwd).report).toEqual({ format: 'tap', path: path.join(cwd, 'reports/t.tap') });
  });

  it('needs both options', () => {
    expect(usage(() => parseCustomCommand('pytest', undefined, cwd))).toBe('--command "pytest" needs --report junit:<file>, tap:<file> or tap:- (where its results are)');
    expect(usage(() => parseCustomCommand(undefined, 'junit:r.xml', cwd))).toBe('--report "junit:r.xml" needs --command: the report of which command?');
  });

  it.each([
    ['pytest; rm -rf x', ';'], ['pytest | tee log', '|'], ['pytest && echo', '&'], ['pytest > log', '>'], ['pytest < in', '<'],
    ['pytest $ARGS', '$'], ['pytest `cat args`', '`'], ['pytest "$HOME"', '$'], ['(pytest)', '('], ['pytest &', '&'],
  ])('rejects shell syntax in %j', (command, char) => {
    expect(usage(() => parseCustomCommand(command, 'junit:r.xml', cwd))).toBe(
      `--command ${JSON.stringify(command)} uses shell syntax (${JSON.stringify(char)}), but it runs without a shell; put the pipeline in a script and give that script`,
    );
  });

  it('rejects newlines, unterminated quotes, an empty command and leading assignments', () => {
    expect(usage(() => parseCustomCommand('pytest\nrm -rf /', 'junit:r.xml', cwd))).toBe('--command "pytest\\nrm -rf /" spans several lines; give one command (it runs without a shell)');
    expect(usage(() => parseCustomCommand("pytest -k 'a", 'junit:r.xml', cwd))).toBe(`--command "pytest -k 'a" has an unterminated quote`);
    expect(usage(() => parseCustomCommand('   ', 'junit:r.xml', cwd))).toBe('--command is empty');
    expect(usage(() => parseCustomCommand('CI=1 pytest', 'junit:r.xml', cwd))).toBe(
      `--command "CI=1 pytest" starts with a variable assignment; set CI in run-tests' own environment instead (the command inherits it)`,
    );
  });

  it('lets quoted text hold what a shell would not expand there', () => {
    expect(parseCustomCommand(`mocha --grep 'a|b;c>d' -g '$x' "a|b" x\\;y`, 'junit:r.xml', cwd).argv).toEqual(['mocha', '--grep', 'a|b;c>d', '-g', '$x', 'a|b', 'x;y']);
    expect(shellSyntax(`a 'b"$' "c'd"`)).toBeNull();
    expect(shellSyntax(`a "b\\"$"`)).toBe('$');
    expect(shellSyntax('a "\\$x"')).toBeNull();
  });

  it('validates the report, naming the option and the value', () => {
    expect(usage(() => parseCustomCommand('t', 'xml:r.xml', cwd))).toBe('--report "xml:r.xml": the format must be junit or tap (as junit:<file>, tap:<file> or tap:-), got "xml"');
    expect(usage(() => parseCustomCommand('t', 'r.xml', cwd))).toBe('--report "r.xml": the format must be junit or tap (as junit:<file>, tap:<file> or tap:-), got "r.xml"');
    expect(usage(() => parseCustomCommand('t', 'JUNIT:r.xml', cwd))).toMatch(/got "JUNIT"$/);
    expect(usage(() => parseCustomCommand('t', 'junit:', cwd))).toBe('--report "junit:": give the file after the colon (junit:<file>)');
    expect(usage(() => parseCustomCommand('t', 'tap:', cwd))).toBe('--report "tap:": give the file after the colon (tap:<file> or tap:-)');
    expect(usage(() => parseCustomCommand('t', 'junit:-', cwd))).toBe(`--report "junit:-": JUnit XML cannot be read from stdout, where the command's other output goes; have it write a file`);
    expect(usage(() => parseCustomCommand('t', 'junit:a\u0007.xml', cwd))).toBe('--report "junit:a\\u0007.xml": the path contains control characters');
    expect(usage(() => parseCustomCommand('t', 'junit:reports', cwd))).toBe(`--report "junit:reports": ${cwd}/reports is a directory; give the report file`);
  });

  it('keeps the report inside cwd, since run-tests removes it before the run', () => {
    for (const outside of ['junit:../r.xml', 'junit:/tmp/r.xml', 'tap:.', 'junit:reports/../../r.xml']) {
      expect(usage(() => parseCustomCommand('t', outside, cwd))).toBe(
        `--report ${JSON.stringify(outside)}: the report must lie inside ${cwd} (run-tests removes it before the run, so a stale report is never read)`,
      );
    }
  });
});
