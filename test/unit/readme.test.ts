/** The README's runner table and exit-code table say what the code does: both are made
 * here from the registry and the exit-code table, and compared with the README's text.
 * Every relative link of the README and docs/ leads to a file (and heading) that exists. */
import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
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

/** Markdown files without their fenced blocks, whose `# comments` are not headings. */
function prose(file: string): string {
  return fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The anchors GitHub gives a file's headings: lower case, punctuation dropped, spaces as
 * hyphens, a repeated one suffixed -1, -2. */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, text] of prose(file).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = (text as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** `[text](target)` links that stay in the repository, as [target, anchor] from the repository root. */
function relativeLinks(file: string): [string, string | null][] {
  const text = prose(file).replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^[a-z][a-z+.-]*:/i.test(target))
    .map((target) => {
      const [to = '', anchor = null] = target.split('#');
      return [to === '' ? path.relative(REPO, file) : path.join(path.dirname(path.relative(REPO, file)), to), anchor];
    });
}

const DOCS = [...fs.readdirSync(`${REPO}docs`, { recursive: true, encoding: 'utf8' })]
  .filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`).sort();

describe('links', () => {
  it.each(['README.md', ...DOCS])('%s: every relative link leads to a file and heading that exist', (page) => {
    const broken = relativeLinks(`${REPO}${page}`).filter(([to, anchor]) =>
      !fs.existsSync(`${REPO}${to}`) || (anchor !== null && !anchors(`${REPO}${to}`).has(anchor)));
    expect(broken).toEqual([]);
  });

  it("ships every docs page the README links to (package.json's files)", () => {
    const { files } = JSON.parse(fs.readFileSync(`${REPO}package.json`, 'utf8')) as { files: string[] };
    const shipped = (to: string) => files.some((f) => (f.endsWith('/') ? to.startsWith(f) : to === f));
    const docs = new Set(relativeLinks(`${REPO}README.md`).map(([to]) => to).filter((to) => to.startsWith('docs/')));
    expect([...docs].filter((to) => !shipped(to))).toEqual([]);
  });
});
