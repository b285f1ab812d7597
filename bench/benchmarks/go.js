import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { fileURLToPath } from 'node:url';
import { command } from '../lib/command.js';
import { runTests } from '../lib/commands.js';
import { figure, timeFigure } from '../lib/figure.js';
import { GO_WORK_BODY, goSuite, tempDir } from '../lib/fixtures.js';
import { alternate, summarise, wallTimes } from '../lib/measure.js';
import { freshImport, parserModule } from '../lib/parser-bundle.js';
import { plannedRunner } from '../lib/planned-runner.js';
import { median } from '../lib/stats.js';
import { GO_ABOVE_GOTESTSUM, GO_LARGE_SUITE, GO_READ_CPU, TRIVIAL_SUITE } from '../lib/targets.js';

const PASSED_BY_HAND = /"Action":"pass","Package":"example.com\/bench\/p\d","Elapsed"/;
const NODE_FLOOR = fileURLToPath(new URL('../lib/node-floor.cjs', import.meta.url));

/** The generated go suites, each run in the same rounds by run-tests, `go test -json`
 * alone, `gotestsum --format testname` and the command run-tests plans. */
function suites() {
  return [
    { what: '5 packages, 1,000 tests', dir: goSuite(5, 200), tests: 1000, trivial: true },
    // The same module ten times larger: the ratio must hold as a suite grows.
    { what: '5 packages, 10,000 tests', dir: goSuite(5, 2000), tests: 10000, large: true },
    { what: '5 packages, 1,000 tests of ~1 ms work', dir: goSuite(5, 200, GO_WORK_BODY), tests: 1000 },
  ];
}

async function commandsFor(suite) {
  const { dir, tests } = suite;
  return {
    // run-tests uses go's test cache, which would answer every round after the first:
    // GOFLAGS=-count=1 (set in run) makes every go command run its tests afresh.
    ours: runTests(['--cwd', dir], { cwd: dir, label: 'run-tests', shown: 'bin/run-tests.js --cwd <generated go module>', expectOutput: new RegExp(`\\b${tests} passed, 0 failed, 0 errors, 0 skipped\\b`) }),
    // By hand, the last line is the pass of the package that finished last, in any order.
    go: command({ label: 'go test -json', argv: ['go', 'test', '-json', '-count=1', './...'], cwd: dir, shown: 'go test -json -count=1 ./...', expectOutput: PASSED_BY_HAND }),
    gotestsum: command({ label: 'gotestsum', argv: ['gotestsum', '--format', 'testname', '--', '-count=1', './...'], cwd: dir, shown: 'gotestsum --format testname -- -count=1 ./...', expectOutput: new RegExp(`DONE ${tests} tests`) }),
    planned: await plannedRunner(dir, { label: 'planned go test', expectOutput: PASSED_BY_HAND }),
    // node starting go and reading its events, nothing else: what any node program pays.
    floor: command({ label: 'node floor', argv: [process.execPath, NODE_FLOOR, 'go', 'test', '-json', '-count=1', './...'], cwd: dir, shown: 'node bench/lib/node-floor.cjs go test -json -count=1 ./...', expectOutput: /read [1-9]\d* bytes/ }),
  };
}

/** Each suite's ratios to `go test -json`: gotestsum's (information) and run-tests' (at
 * most gotestsum's + GO_ABOVE_GOTESTSUM; at most GO_LARGE_SUITE on the large suite and
 * TRIVIAL_SUITE's time added on the trivial one), the node floor's (information: node's
 * start and a read of go's output, which every node program pays),
 * then run-tests split into its runner side and its node side, as for the other runners. */
async function overheadFigures({ runs, log }) {
  const figures = [];
  for (const suite of suites()) {
    const title = `go overhead: ${suite.what}`;
    log(`${title} (run-tests vs go test -json vs gotestsum vs the planned command vs the node floor)`);
    const c = await commandsFor(suite);
    const [ours, go, gotestsum, planned, floor] = await wallTimes([c.ours, c.go, c.gotestsum, c.planned, c.floor], { runs, log });
    const theirs = summarise(gotestsum, go);
    const row = (name, a, b, as, bs, target = {}) => timeFigure({ benchmark: 'go', title: name, a, b, comparison: summarise(as, bs), ...target });
    figures.push(
      row(`${title}, gotestsum`, c.gotestsum, c.go, gotestsum, go),
      // Where this is above gotestsum's + GO_ABOVE_GOTESTSUM, no program on node meets that target.
      row(`${title}, node floor (a node program that only runs go and reads its output)`, c.floor, c.go, floor, go),
      row(`${title}, run-tests (at most gotestsum's ratio + ${GO_ABOVE_GOTESTSUM})`, c.ours, c.go, ours, go, { maxRatio: theirs.ratio + GO_ABOVE_GOTESTSUM }),
      ...(suite.large ? [row(`${title}, run-tests`, c.ours, c.go, ours, go, GO_LARGE_SUITE)] : []),
      // A trivial suite, as for every runner: at most TRIVIAL_SUITE's time added.
      ...(suite.trivial ? [row(`${title}, run-tests`, c.ours, c.go, ours, go, TRIVIAL_SUITE)] : []),
      row(`${title}, runner side (the planned command)`, c.planned, c.go, planned, go),
      row(`${title}, node side`, c.ours, c.planned, ours, planned),
    );
  }
  return figures;
}

/** As run-tests reads a report (src/core/follow-reports.ts). */
const READ_BYTES = 64 * 1024;
const CPU_TESTS = 10_000;

/** What `go test -json` wrote for the generated module of CPU_TESTS trivial tests. */
function recordedRun() {
  const file = path.join(tempDir('gojson-run'), 'report.jsonl');
  const out = fs.openSync(file, 'w');
  try {
    execFileSync('go', ['test', '-json', '-count=1', './...'], { cwd: goSuite(5, CPU_TESTS / 5), stdio: ['ignore', out, 'pipe'] });
  } finally {
    fs.closeSync(out);
  }
  return file;
}

/** CPU ms of this process (all its threads: the compiler's and the collector's too) while
 * a new instance of the go parser, with neither type feedback nor optimised code as in a
 * run-tests just started, reads `bytes` as run-tests feeds it: 64 KiB through a StringDecoder. */
async function readCpuMs(moduleFile, bytes) {
  const { createGoJsonParser } = await freshImport(moduleFile);
  const before = process.cpuUsage();
  const parser = createGoJsonParser({ root: '/', hints: { module: 'example.com/bench' } });
  const decoder = new StringDecoder('utf8');
  for (let at = 0; at < bytes.length; at += READ_BYTES) parser.push(decoder.write(bytes.subarray(at, at + READ_BYTES)));
  parser.push(decoder.end());
  const report = parser.end();
  const used = process.cpuUsage(before);
  if (report.tests.length !== CPU_TESTS || !report.complete) throw new Error(`the go parser read ${report.tests.length} tests (complete: ${report.complete}), expected ${CPU_TESTS}`);
  return (used.user + used.system) / 1000;
}

async function readFigure({ runs, log }) {
  const file = recordedRun();
  const bytes = fs.readFileSync(file);
  const megabytes = (bytes.length / 1e6).toFixed(1);
  const moduleFile = await parserModule('runners/go/json');
  log(`reading go's events: a real run of ${CPU_TESTS} tests, ${megabytes} MB`);
  const [samples] = await alternate([moduleFile], { runs, measure: (m) => readCpuMs(m, bytes), describe: (ms) => `${ms.toFixed(0)} ms CPU`, log });
  const ms = median(samples);
  return figure({
    benchmark: 'go',
    title: `reading go's events: a real run of ${CPU_TESTS / 1000}k tests, ${megabytes} MB, CPU time`,
    a: { label: 'go-json parser', shown: 'src/runners/go/json.ts, a new instance per round, in the bench process: process.cpuUsage() around the read', median: ms, unit: 'ms CPU' },
    result: { value: ms, unit: 'ms CPU' },
    target: { max: GO_READ_CPU.maxMs, unit: 'ms CPU' },
    runs: samples.length,
  });
}

export const goBench = {
  name: 'go',
  title: 'run-tests against go test -json and gotestsum; the CPU time of reading go\'s events',
  async run(options) {
    process.env.GOFLAGS = '-count=1';
    return [...(await overheadFigures(options)), await readFigure(options)];
  },
};
