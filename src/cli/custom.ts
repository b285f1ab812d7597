import fs from 'node:fs';
import path from 'node:path';
import { shellWords } from '../project/command-line.js';
import { usageError } from '../model/errors.js';
import type { CustomCommand } from '../model/request.js';

type ReportFormat = CustomCommand['report']['format'];
const FORMATS: readonly ReportFormat[] = ['junit', 'tap'];
const CONTROL = /[\u0000-\u001f\u007f]/;
/** Outside quotes these mean something to a shell: a chain, a pipe, a redirect, a
 * background job, a subshell, an expansion. */
const UNQUOTED_SYNTAX = new Set([';', '|', '&', '<', '>', '(', ')', '$', '`']);
/** Inside double quotes a shell still expands these. */
const DOUBLE_QUOTED_SYNTAX = new Set(['$', '`']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** `--command` and `--report`, validated together: the command split into argv
 * without a shell, and where its report is (an absolute path, or '-' for TAP on stdout). */
export function parseCustomCommand(command: string | undefined, report: string | undefined, cwd: string): CustomCommand {
  if (command === undefined) throw usageError(`--report ${JSON.stringify(report)} needs --command: the report of which command?`);
  if (report === undefined) throw usageError(`--command ${JSON.stringify(command)} needs --report junit:<file>, tap:<file> or tap:- (where its results are)`);
  return { argv: commandWords(command), report: reportLocation(report, cwd) };
}

function commandWords(command: string): string[] {
  const shown = JSON.stringify(command);
  if (/[\n\r]/.test(command)) throw usageError(`--command ${shown} spans several lines; give one command (it runs without a shell)`);
  const syntax = shellSyntax(command);
  if (syntax !== null) {
    throw usageError(`--command ${shown} uses shell syntax (${JSON.stringify(syntax)}), but it runs without a shell; put the pipeline in a script and give that script`);
  }
  const words = shellWords(command);
  if (words === null) throw usageError(`--command ${shown} has an unterminated quote`);
  const [first] = words;
  if (first === undefined) throw usageError('--command is empty');
  if (ASSIGNMENT.test(first)) {
    throw usageError(`--command ${shown} starts with a variable assignment; set ${first.slice(0, first.indexOf('='))} in run-tests' own environment instead (the command inherits it)`);
  }
  return words;
}

/** The first character a POSIX shell would treat as syntax rather than as part of a
 * word, or null: quoted text is literal (single quotes fully, double quotes except
 * `$` and backquote), so `--grep 'a|b'` is one plain word. */
export function shellSyntax(command: string): string | null {
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] ?? '';
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\') i += 1;
      else if (DOUBLE_QUOTED_SYNTAX.has(c)) return c;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '\\') {
      i += 1;
    } else if (UNQUOTED_SYNTAX.has(c)) {
      return c;
    }
  }
  return null;
}

/** `junit:<file>`, `tap:<file>` or `tap:-`. A report file must lie inside cwd: run-tests
 * deletes it before the run so that a stale one is never read, and it deletes nothing
 * outside the directory it was started in. */
function reportLocation(value: string, cwd: string): CustomCommand['report'] {
  const shown = `--report ${JSON.stringify(value)}`;
  const colon = value.indexOf(':');
  const format = colon === -1 ? value : value.slice(0, colon);
  const target = colon === -1 ? '' : value.slice(colon + 1);
  if (!(FORMATS as readonly string[]).includes(format)) {
    throw usageError(`${shown}: the format must be junit or tap (as junit:<file>, tap:<file> or tap:-), got ${JSON.stringify(format)}`);
  }
  const checked = format as ReportFormat;
  if (target === '') throw usageError(`${shown}: give the file after the colon (${checked}:<file>${checked === 'tap' ? ' or tap:-' : ''})`);
  if (target === '-') {
    if (checked === 'tap') return { format: checked, path: '-' };
    throw usageError(`${shown}: JUnit XML cannot be read from stdout, where the command's other output goes; have it write a file`);
  }
  if (CONTROL.test(target)) throw usageError(`${shown}: the path contains control characters`);
  const absolute = path.resolve(cwd, target);
  const relative = path.relative(cwd, absolute);
  if (relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative)) {
    throw usageError(`${shown}: the report must lie inside ${cwd} (run-tests removes it before the run, so a stale report is never read)`);
  }
  if (fs.statSync(absolute, { throwIfNoEntry: false })?.isDirectory()) throw usageError(`${shown}: ${absolute} is a directory; give the report file`);
  return { format: checked, path: absolute };
}
