import { beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { copyFixture, runCli, runJson } from './helpers.js';

/** `run-tests report` on real runs of node's test runner: two shards of one partition,
 * given with --from to a project with no history of its own, so the page holds exactly
 * those two runs; then the last run's failures, --limit, --out and the refusals. */
let project: string;
let shards: string[];

beforeAll(async () => {
  project = await copyFixture('node-test-report-page');
  shards = [];
  for (const [index, code] of [[1, 0], [2, 1]] as const) {
    const { exitCode, report } = await runJson(['--shard', `${index}/2`, '--cwd', project]);
    expect([exitCode, report.shard?.units]).toEqual([code, [index === 1 ? 'test/cart.test.js' : 'test/markup.test.js']]);
    const file = path.join(project, `shard-${index}.json`);
    fs.writeFileSync(file, JSON.stringify(report));
    shards.push(file);
  }
});

const emptyProject = (): string => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-report-')));
const runsIn = (html: string): string[] => [...html.matchAll(/<tr><td>[^<]*<\/td><td>([^<]+)<\/td><td class="status [^"]+">([a-z_]+)<\/td>/g)].map((m) => `${m[1]} ${m[2]}`);

describe('run-tests report', () => {
  test('writes .run-tests/report/index.html from the reports given, prints its path, and escapes the markup-named test', async () => {
    const dir = emptyProject();
    const result = await runCli(['report', '--cwd', dir, '--from', ...shards]);
    const file = path.join(dir, '.run-tests/report/index.html');
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, `${file}\n`, '']);
    const html = fs.readFileSync(file, 'utf8');
    expect(runsIn(html)).toHaveLength(2);
    expect(html).toContain('<div class="tile">Tests seen<b>5</b></div>');
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('<div class="name">&lt;script&gt;alert(1)&lt;/script&gt;</div>');
    expect(html).toContain('<div class="name">markup &amp; &quot;quotes&quot; pass</div>');
    // Both parts of the one partition, each as a bar.
    expect(html.match(/<rect class="shard"/g)).toHaveLength(2);
    expect(html).toContain('No report of a last run.');
    expect(fs.readFileSync(path.join(dir, '.run-tests/.gitignore'), 'utf8')).toBe('*\n');
  });

  test("reads the project's own history, and lists its last run's failures with file:line and message", async () => {
    // --out as a shell gives it: from where run-tests started.
    const result = await runCli(['report', '--cwd', project, '--out', 'page'], { cwd: project });
    expect([result.exitCode, result.stdout]).toEqual([0, `${path.join(project, 'page/index.html')}\n`]);
    const html = fs.readFileSync(path.join(project, 'page/index.html'), 'utf8');
    // The project's own history: the two shard runs, as each run recorded itself.
    expect(runsIn(html).map((r) => r.split(' ')[1])).toEqual(['failed', 'passed']);
    expect(html).toContain('1 failure; messages cut at 2,000 characters.');
    expect(html).toContain('<div class="file">test/markup.test.js:6</div>');
    expect(html).toContain("<pre>Expected values to be strictly equal:\n+ actual - expected\n\n+ &#39;&lt;img src=x onerror=alert(2)&gt;&#39;\n- &#39;&lt;b&gt;bold&lt;/b&gt;&#39;</pre>");
  });

  test('--limit keeps the newest runs only', async () => {
    const dir = emptyProject();
    const result = await runCli(['report', '--cwd', dir, '--limit', '1', '--from', ...shards]);
    expect(result.exitCode).toBe(0);
    const html = fs.readFileSync(path.join(dir, '.run-tests/report/index.html'), 'utf8');
    expect(runsIn(html)).toEqual([`${JSON.parse(fs.readFileSync(shards[1]!, 'utf8')).run_id} failed`]);
  });

  test('replaces a link where the page goes, never writing through it', async () => {
    const dir = emptyProject();
    const elsewhere = path.join(dir, 'elsewhere.html');
    fs.writeFileSync(elsewhere, 'mine');
    fs.mkdirSync(path.join(dir, 'out'));
    fs.symlinkSync(elsewhere, path.join(dir, 'out/index.html'));
    const result = await runCli(['report', '--cwd', dir, '--out', 'out'], { cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(fs.readFileSync(elsewhere, 'utf8')).toBe('mine');
    expect(fs.lstatSync(path.join(dir, 'out/index.html')).isFile()).toBe(true);
  });

  test('refuses a .run-tests/report that is a link, and writes nothing', async () => {
    const dir = emptyProject();
    const target = emptyProject();
    fs.mkdirSync(path.join(dir, '.run-tests'));
    fs.symlinkSync(target, path.join(dir, '.run-tests/report'));
    const result = await runCli(['report', '--cwd', dir]);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain(`${path.join(dir, '.run-tests/report')} is a symbolic link (to ${target})`);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  test('refuses bad options with exit 2', async () => {
    const dir = emptyProject();
    fs.writeFileSync(path.join(dir, 'file'), '');
    const cases = [[['--limit', '0'], '--limit must be a whole number from 1'], [['--out', 'file'], 'is not a directory'], [['--from', 'missing.json'], 'does not exist']] as const;
    for (const [args, message] of cases) {
      const result = await runCli(['report', '--cwd', dir, ...args], { cwd: dir });
      expect([result.exitCode, result.stderr.includes(message)]).toEqual([2, true]);
    }
    expect(fs.existsSync(path.join(dir, '.run-tests'))).toBe(false);
  });
});
