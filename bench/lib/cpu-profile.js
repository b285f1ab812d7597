import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runOnce, verify } from './command.js';

/** Who a sample belongs to: the innermost package or run-tests file on its stack, else
 * node's module loader, else the V8 pseudo-frame such as "(garbage collector)". */
function owner(stack) {
  for (const frame of stack) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
    if (pkg) return pkg[1];
    const own = /\/dist\/(.+)$/.exec(frame.url);
    if (own) return `dist/${own[1]}`;
  }
  if (stack.some((frame) => frame.url.startsWith('node:internal/modules'))) return 'node: module loading';
  const leaf = stack[0]?.functionName ?? '';
  return leaf.startsWith('(') ? leaf : 'node: other';
}

/** Milliseconds per owner in one .cpuprofile, idle time left out. */
export function timeByOwner(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const totals = new Map();
  profile.samples.forEach((id, i) => {
    const stack = [];
    for (let at = id; at !== undefined; at = parents.get(at)) stack.push(nodes.get(at).callFrame);
    const key = owner(stack);
    if (key !== '(idle)') totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return totals;
}

/** Runs a node command `runs` times under `--cpu-prof`; returns the mean ms per owner, largest first. */
export async function profileCommand(cmd, runs = 5) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-bench-prof-'));
  try {
    // A program (bin/run-tests.js) is profiled through node, which skips its sh lines.
    const [node, ...rest] = cmd.argv[0] === process.execPath ? cmd.argv : [process.execPath, ...cmd.argv];
    for (let i = 0; i < runs; i += 1) {
      verify(cmd, await runOnce({ ...cmd, argv: [node, '--cpu-prof', '--cpu-prof-dir', dir, ...rest] }));
    }
    const sums = new Map();
    for (const file of fs.readdirSync(dir)) {
      for (const [key, ms] of timeByOwner(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')))) {
        sums.set(key, (sums.get(key) ?? 0) + ms);
      }
    }
    return [...sums].map(([key, ms]) => ({ owner: key, ms: ms / runs })).sort((x, y) => y.ms - x.ms);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** "fs-extra 25 ms, commander 16 ms, …" for the largest owners, with the profiled total. */
export function describeProfile(owners, top = 6) {
  const total = owners.reduce((sum, o) => sum + o.ms, 0);
  const parts = owners.slice(0, top).map((o) => `${o.owner} ${o.ms.toFixed(0)} ms`);
  return `${total.toFixed(0)} ms of busy JS per run after node's own bootstrap: ${parts.join(', ')}`;
}
