import { expect } from '@jest/globals';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/** The text of an expected file: what `UPDATE_GOLDEN=1` writes. */
export const goldenText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Compares a parser's result on a recorded output with the expected file beside it.
 * With UPDATE_GOLDEN=1 it writes the result there instead, so a change of behaviour is
 * reviewed in the diff (`git diff test/fixtures/outputs`), never checked by eye. Without
 * it, a missing expected file fails: a recording nobody checks cannot pass silently. */
export function expectGolden(expectedFile: string, actual: unknown, update = process.env['UPDATE_GOLDEN'] === '1'): void {
  if (update) return writeGolden(expectedFile, actual);
  if (!existsSync(expectedFile)) {
    throw new Error(`${expectedFile} is missing: run UPDATE_GOLDEN=1 npm run test:unit to write it, then review it`);
  }
  expect(actual).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
}

/** Written only when it changes, and by rename: a test reading it meanwhile (several read
 * the same file) never sees half of it. */
function writeGolden(file: string, value: unknown): void {
  const text = goldenText(value);
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
}
