/** The minitest tests at a line of a test file, by their `Class#test_name`: a `def
 * test_…` or ActiveSupport's `test "…" do`, or every one of a class at its other lines. */
import { usageError } from '../../model/errors.js';
import type { FailedTestRecord } from '../../model/results.js';
import { definitionsIn, enclosingDefinitions, type Definition } from '../../project/indented.js';

const DEFINITION = /^\s*(?<kind>class|module|def|test)\b\s*\(?\s*(?<name>"[^"]*"|'[^']*'|[\w:?!]+)/;
const END = /^\s*end\b/;

/** `test "adds numbers"` defines `test_adds_numbers` (ActiveSupport's declarative test). */
const methodName = (d: Definition): string => (d.kind === 'test' ? `test_${d.name.slice(1, -1).replace(/\s+/g, '_')}` : d.name);
const isTest = (d: Definition): boolean => d.kind === 'test' || (d.kind === 'def' && d.name.startsWith('test_'));

export function minitestTestsAt(file: string, line: number, text: string): FailedTestRecord[] {
  const chain = enclosingDefinitions(text, line, DEFINITION, { closer: END });
  const method = chain.findIndex((d) => d.kind === 'def' || d.kind === 'test');
  const scopes = (method === -1 ? chain : chain.slice(0, method)).filter((d) => d.kind === 'class' || d.kind === 'module');
  const klass = scopes.at(-1);
  if (klass?.kind !== 'class') throw usageError(`no test class or method is defined at ${file}:${line} (def test_… or test "…" in a class)`);
  const methods = method === -1 ? definitionsIn(text, klass, DEFINITION).filter(isTest) : [chain[method] as Definition];
  if (!methods.every(isTest) || methods.length === 0) throw usageError(`no test method is defined at ${file}:${line} (def test_… or test "…")`);
  const className = scopes.map((d) => d.name).join('::');
  return methods.map((d) => {
    const name = `${className}#${methodName(d)}`;
    return { id: name, test_name: name, file, line: d.line, status: 'failed', message: '' };
  });
}
