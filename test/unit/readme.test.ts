/** The README's runner table and exit-code table say what the code does: both are made
 * here from the registry and the exit-code table, and compared with the README's text. */
import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { EXIT_CODE_MEANINGS } from '../../src/model/exit-codes.js';
import { RUNNERS } from '../../src/runners/index.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const README = fs.readFileSync(`${REPO}README.md`, 'utf8');

/** The lines between `<!-- name -->` and `<!-- /name -->`. */
function block(name: string): string[] {
  const start = README.indexOf(`<!-- ${name} -->\n`);
  const end = README.indexOf(`<!-- /${name} -->`);
  if (start < 0 || end < start) throw new Error(`README.md has no <!-- ${name} --> block`);
  return README.slice(start + `<!-- ${name} -->\n`.length, end).trimEnd().split('\n');
}

describe('README', () => {
  it('lists every runner, in detection order, with what detection looks for and its page', () => {
    expect(block('runners')).toEqual([
      '| Runner | Detected by |',
      '|---|---|',
      ...RUNNERS.map((r) => `| [${r.id}](docs/runners/${r.id}.md) | ${r.lookingFor} |`),
    ]);
    for (const r of RUNNERS) expect([r.id, fs.existsSync(`${REPO}docs/runners/${r.id}.md`)]).toEqual([r.id, true]);
  });

  it('gives the exit codes as src/model/exit-codes.ts does', () => {
    expect(block('exit-codes')).toEqual([
      '| Code | Meaning |',
      '|---|---|',
      ...EXIT_CODE_MEANINGS.map(([code, meaning]) => `| ${code} | ${meaning} |`),
    ]);
  });
});
