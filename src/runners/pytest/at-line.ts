/** The pytest node id of a line: the test function or class defined there. */
import { enclosingDefinitions } from '../../project/indented.js';

const DEFINITION = /^\s*(?:async\s+)?(?<kind>def|class)\s+(?<name>\w+)/;
const DECORATOR = /^\s*@/;

/** The names after `file::` for a line (`['TestX', 'test_y']`): its classes, and the
 * outermost function inside them (a function nested in a test is no test); null when
 * the line lies outside every class and function. */
export function pythonDefinitionAt(text: string, line: number): string[] | null {
  const chain = enclosingDefinitions(text, line, DEFINITION, { annotation: DECORATOR });
  const firstFunction = chain.findIndex((d) => d.kind === 'def');
  const names = (firstFunction === -1 ? chain : chain.slice(0, firstFunction + 1)).map((d) => d.name);
  return names.length === 0 ? null : names;
}
