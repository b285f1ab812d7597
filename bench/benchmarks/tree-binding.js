import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { figure } from '../lib/figure.js';
import { committedCopy, tempDir } from '../lib/fixtures.js';
import { median } from '../lib/stats.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The second look stands between the runner's end and the report. In a small tree,
 * with nothing moved, it spawns no git and costs file stats only: less than one bare git
 * spawn. In a larger one git lists the tree (beside the reading of the results, in a
 * run): a few spawns' worth. */
const MAX_RATIO = { small: 1, large: 5 };

/**
 * A node script, bundled from src/core/drift.ts, that takes the first look at a tree
 * once and then, `runs` times each in turn (AB, BA, …), the second look (what a run
 * waits for after its runner exits) and a bare `git --version` (the floor of anything
 * that asks git). Prints the samples as JSON.
 */
async function lookScript() {
  const dir = tempDir('tree-binding');
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(entry, `import { execFile } from 'node:child_process';
import { firstLook, lookAgain } from ${JSON.stringify(path.join(repoRoot, 'src/core/drift.ts'))};
const [root, runs] = [process.argv[2], Number(process.argv[3])];
const ms = () => Number(process.hrtime.bigint()) / 1e6;
const gitVersion = () => new Promise((resolve) => execFile('git', ['--version'], resolve));
const before = await firstLook(root, new Set());
if (before === null || before.git === null) throw new Error(root + ' is not a git work tree');
const sides = { again: () => lookAgain(before, root, new Set(), Number.POSITIVE_INFINITY), floor: gitVersion };
const samples = { again: [], floor: [] };
for (const side of ['again', 'floor']) await sides[side]();
for (let round = 0; round < runs; round += 1) {
  for (const side of round % 2 === 0 ? ['again', 'floor'] : ['floor', 'again']) {
    const start = ms();
    const result = await sides[side]();
    samples[side].push(ms() - start);
    if (side === 'again' && result.fields.drift !== false) throw new Error('the tree changed while it was measured');
  }
}
process.stdout.write(JSON.stringify({ files: before.files.size, ...samples }));
`);
  const outfile = path.join(dir, 'look.mjs');
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'error' });
  return outfile;
}

/** A copy of a small fixture as a git repository with one commit. */
function smallRepo() {
  const dir = committedCopy('node-test-drift');
  return { dir, where: '<copy of test/fixtures/projects/node-test-drift, committed>', size: 'small' };
}

/** This checkout, when it is a git work tree (a packed copy is not). */
function thisRepo() {
  try {
    execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: repoRoot, stdio: 'ignore' });
    return { dir: repoRoot, where: 'this checkout of run-tests', size: 'large' };
  } catch {
    return null;
  }
}

export const treeBinding = {
  name: 'tree-binding',
  title: 'the look at the git tree after the run (drift), against a bare `git --version`',
  async run({ runs, log }) {
    const script = await lookScript();
    const figures = [];
    for (const tree of [smallRepo(), thisRepo()].filter((t) => t !== null)) {
      const out = JSON.parse(execFileSync(process.execPath, [script, tree.dir, String(runs * 3)], { encoding: 'utf8' }));
      const ratios = out.again.map((value, i) => value / out.floor[i]);
      log(`  ${tree.where}: second look ${median(out.again).toFixed(1)} ms, git --version ${median(out.floor).toFixed(1)} ms`);
      figures.push(figure({
        benchmark: 'tree-binding',
        title: `drift: second look at ${tree.where}, against git --version`,
        a: { label: 'second look', shown: `lookAgain(${tree.where})`, median: median(out.again), unit: 'ms' },
        b: { label: 'git --version', shown: 'git --version', median: median(out.floor), unit: 'ms' },
        result: { value: median(ratios), unit: '×' },
        target: { max: MAX_RATIO[tree.size], unit: '×' },
        runs: ratios.length,
      }));
    }
    return figures;
  },
};
