import fs from 'node:fs';
import path from 'node:path';
import { command } from '../lib/command.js';
import { runTests } from '../lib/commands.js';
import { figure, timeFigure } from '../lib/figure.js';
import { tempDir } from '../lib/fixtures.js';
import { summarise, wallTimes } from '../lib/measure.js';
import { JOBS } from '../lib/targets.js';

const PROJECTS = 4;
const FILES = 2;
const TESTS_PER_FILE = 6;
/** How long the local service a test calls takes to answer. */
const SERVICE_MS = 35;

/**
 * A node:test file whose tests each do what a typical service test does: some work in
 * the process (build 4,000 records, serialise, parse and sort them, five times: ~25 ms
 * of CPU here) and a request to a local HTTP server that answers after SERVICE_MS (a
 * database or a service the code under test calls). About 60 ms a test, 40% of it CPU:
 * sleeping alone would overlap perfectly on any machine, pure CPU could not beat the
 * number of CPUs.
 */
function testFile(file) {
  return `const { test, before, after } = require('node:test');
const assert = require('node:assert');
const http = require('node:http');

let server;
let port;
before(async () => {
  server = http.createServer((req, res) => setTimeout(() => res.end(JSON.stringify({ id: Number(req.url.slice(1)) })), ${SERVICE_MS}));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
});
after(() => server.close());

const fetchJson = (id) => new Promise((resolve, reject) => {
  http.get({ host: '127.0.0.1', port, path: '/' + id, agent: false }, (res) => {
    let body = '';
    res.on('data', (chunk) => { body += chunk; });
    res.on('end', () => resolve(JSON.parse(body)));
  }).on('error', reject);
});

for (let i = 0; i < ${TESTS_PER_FILE}; i += 1) {
  test('file ${file} case ' + i, async () => {
    let cheapest;
    for (let round = 0; round < 5; round += 1) {
      const rows = Array.from({ length: 4000 }, (_, k) => ({ id: (k * 7919 + i + round) % 4000, name: 'item-' + k, tags: [k % 7, k % 11], price: (k * 31) % 997 }));
      cheapest = JSON.parse(JSON.stringify(rows)).sort((a, b) => a.price - b.price || a.id - b.id)[0];
    }
    assert.equal(cheapest.price, 0);
    assert.deepEqual(await fetchJson(i), { id: i });
  });
}
`;
}

/** A directory holding PROJECTS node:test projects (no project of its own). */
function monorepo() {
  const root = tempDir('jobs');
  for (let p = 1; p <= PROJECTS; p += 1) {
    const dir = path.join(root, 'services', `s${p}`);
    fs.mkdirSync(path.join(dir, 'test'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `s${p}`, private: true, scripts: { test: 'node --test test/' } }, null, 2));
    for (let f = 0; f < FILES; f += 1) fs.writeFileSync(path.join(dir, 'test', `work${f}.test.js`), testFile(f));
  }
  return root;
}

export const jobsBench = {
  name: 'jobs',
  title: `--jobs: ${PROJECTS} subprojects of about 1 s each, at once against one after another`,
  async run({ runs, log }) {
    const root = monorepo();
    const tests = PROJECTS * FILES * TESTS_PER_FILE;
    const expectOutput = new RegExp(`\\b${tests} passed, 0 failed, 0 errors, 0 skipped\\b`);
    const run = (jobs) => runTests(['--cwd', root, '--all-projects', '--jobs', String(jobs)], {
      cwd: root, label: `--jobs ${jobs}`, shown: `bin/run-tests.js --cwd <${PROJECTS} generated node:test projects> --all-projects --jobs ${jobs}`, expectOutput,
    });
    const one = path.join(root, 'services/s1');
    const byHand = command({ label: 'one project by hand', argv: [process.execPath, '--test', 'test/'], cwd: one, shown: 'node --test test/ (in one of the projects)' });
    const [parallel, serial, hand] = [run(PROJECTS), run(1), byHand];
    const [a, b, h] = await wallTimes([parallel, serial, hand], { runs, log });
    const comparison = summarise(a, b);
    return [
      timeFigure({ benchmark: 'jobs', title: `--jobs ${PROJECTS} against --jobs 1: ${PROJECTS} projects of ${FILES * TESTS_PER_FILE} tests (~60 ms each, 40% CPU)`, a: parallel, b: serial, comparison, ...JOBS }),
      figure({
        benchmark: 'jobs',
        title: 'one of those projects by hand (for information: what one suite takes)',
        a: { label: hand.label, shown: hand.shown, median: summarise(h, h).a.median, unit: 'ms' },
        result: { value: summarise(h, h).a.median, unit: 'ms' },
        runs: h.length,
      }),
    ];
  },
};
