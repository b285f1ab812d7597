import type { History } from '../../model/history.js';

/** `run-tests history <name|file>`: the tests whose name contains the text, or whose
 * file is it or lies below it (`test/`, `./test/a.test.js`); every run stays. */
export function selectTests(history: History, operand: string | null): History {
  if (operand === null) return history;
  const file = operand.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const inFile = (f: string | null): boolean => f !== null && (f === file || f.startsWith(`${file}/`));
  return { ...history, tests: history.tests.filter((test) => test.name.includes(operand) || inFile(test.file)) };
}
