import fs from 'node:fs';
import path from 'node:path';
import { command, runOnce, verify } from '../lib/command.js';
import { figure, timeFigure } from '../lib/figure.js';
import { tempDir } from '../lib/fixtures.js';
import { alternate, compareTimes } from '../lib/measure.js';
import { parserScript } from '../lib/parser-bundle.js';
import { peakRss } from '../lib/rss.js';
import { median } from '../lib/stats.js';

const JUNIT_TESTS = 100_000;
const MAX_JUNIT_MS = 3000;
const MAX_JUNIT_MIB = 600;
const GO_TESTS = 200_000;

/** A JUnit file of `count` testcases in suites of 100: every tenth fails with a 20-frame
 * stack and system-out, every fiftieth is skipped; about 35 MB. */
function junitFile(count) {
  const dir = tempDir('junit');
  const file = path.join(dir, 'report.xml');
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites tests="${count}" failures="${count / 10}">\n`);
  for (let s = 0; s < count / 100; s += 1) {
    const parts = [`  <testsuite name="suite ${s}" tests="100" file="test/s${s}.test.js">\n`];
    for (let i = 0; i < 100; i += 1) {
      const k = s * 100 + i;
      const open = `    <testcase classname="Suite${s}" name="does thing &lt;${i}&gt; well" time="0.003"`;
      if (k % 10 === 0) {
        const stack = Array.from({ length: 20 }, (_, f) => `    at fn${f} (${dir}/test/s${s}.test.js:${i + 3}:${f + 1})\n`).join('');
        parts.push(`${open}><failure message="expected 1 to equal 2" type="AssertionError">AssertionError: expected 1 to equal 2\n${stack}</failure><system-out>${'log &amp; line\n'.repeat(10)}</system-out></testcase>\n`);
      } else if (k % 50 === 1) parts.push(`${open}><skipped message="not today"/></testcase>\n`);
      else parts.push(`${open}/>\n`);
    }
    parts.push('  </testsuite>\n');
    fs.writeSync(out, parts.join(''));
  }
  fs.writeSync(out, '</testsuites>\n');
  fs.closeSync(out);
  return { file, root: dir };
}

/** A `go test -json` stream of `count` tests in packages of 1,000: run, output and pass
 * events per test, every hundredth failing; about 70 MB. */
function goJsonFile(count) {
  const file = path.join(tempDir('gojson'), 'report.jsonl');
  const out = fs.openSync(file, 'w');
  const t = '2000-01-01T00:00:00.000000000Z';
  for (let p = 0; p < count / 1000; p += 1) {
    const pkg = `example.com/bench/p${p}`;
    const lines = [];
    for (let i = 0; i < 1000; i += 1) {
      const name = `TestThing${i}`;
      const fail = i % 100 === 0;
      lines.push(`{"Time":"${t}","Action":"run","Package":"${pkg}","Test":"${name}"}`);
      lines.push(`{"Time":"${t}","Action":"output","Package":"${pkg}","Test":"${name}","Output":"=== RUN   ${name}\\n"}`);
      if (fail) lines.push(`{"Time":"${t}","Action":"output","Package":"${pkg}","Test":"${name}","Output":"    p_test.go:${i + 5}: got 1, want 2\\n"}`);
      lines.push(`{"Time":"${t}","Action":"output","Package":"${pkg}","Test":"${name}","Output":"--- ${fail ? 'FAIL' : 'PASS'}: ${name} (0.00s)\\n"}`);
      lines.push(`{"Time":"${t}","Action":"${fail ? 'fail' : 'pass'}","Package":"${pkg}","Test":"${name}","Elapsed":0}`);
    }
    lines.push(`{"Time":"${t}","Action":"output","Package":"${pkg}","Output":"FAIL\\n"}`, `{"Time":"${t}","Action":"fail","Package":"${pkg}","Elapsed":0.5}`);
    fs.writeSync(out, `${lines.join('\n')}\n`);
  }
  fs.closeSync(out);
  return file;
}

const mib = (file) => (fs.statSync(file).size / 1024 / 1024).toFixed(0);

async function junitFigures({ runs, log }) {
  const { file, root } = junitFile(JUNIT_TESTS);
  const script = await parserScript('parsers/junit', 'createJunitParser');
  const cmd = command({
    label: 'junit parser', argv: [process.execPath, script, file, root], cwd: root,
    shown: `node <esbuild bundle of src/parsers/junit.ts> <${JUNIT_TESTS} testcases, ${mib(file)} MB>`,
    expectOutput: new RegExp(`tests=${JUNIT_TESTS} failed=${JUNIT_TESTS / 10} complete=true`),
  });
  log(`junit: ${JUNIT_TESTS} testcases, ${mib(file)} MB`);
  const [samples] = await alternate([cmd], {
    runs,
    measure: async (c) => ({ ms: verify(c, await runOnce(c)).ms, rss: (await peakRss(c)).self }),
    describe: (s) => `${s.ms.toFixed(0)} ms, ${s.rss.toFixed(0)} MiB`, log,
  });
  const ms = median(samples.map((s) => s.ms));
  const rss = median(samples.map((s) => s.rss));
  const side = (value, unit) => ({ label: cmd.label, shown: cmd.shown, median: value, unit });
  return [
    figure({ benchmark: 'parsers', title: `JUnit parse, ${JUNIT_TESTS / 1000}k testcases: wall time`, a: side(ms, 'ms'), result: { value: ms, unit: 'ms' }, target: { max: MAX_JUNIT_MS, unit: 'ms' }, runs: samples.length }),
    figure({ benchmark: 'parsers', title: `JUnit parse, ${JUNIT_TESTS / 1000}k testcases: peak RSS`, a: side(rss, 'MiB'), result: { value: rss, unit: 'MiB' }, target: { max: MAX_JUNIT_MIB, unit: 'MiB' }, runs: samples.length }),
  ];
}

async function goFigure({ runs, log }) {
  const file = goJsonFile(GO_TESTS);
  const dir = path.dirname(file);
  const script = await parserScript('runners/go/json', 'createGoJsonParser');
  const ours = command({
    label: 'go-json parser', argv: [process.execPath, script, file, dir, '{"module":"example.com/bench"}'], cwd: dir,
    shown: `node <esbuild bundle of src/runners/go/json.ts> <${GO_TESTS} tests, ${mib(file)} MB>`,
    expectOutput: new RegExp(`tests=${GO_TESTS} failed=${GO_TESTS / 100} complete=true`),
  });
  const theirs = command({
    label: 'gotestsum', argv: ['gotestsum', '--format', 'dots', '--raw-command', '--', 'cat', file], cwd: dir,
    shown: 'gotestsum --format dots --raw-command -- cat <the same file>',
    expectOutput: new RegExp(`DONE ${GO_TESTS} tests, ${GO_TESTS / 100} failures`), // exits as cat does: 0
  });
  log(`go -json: ${GO_TESTS} tests, ${mib(file)} MB`);
  const comparison = await compareTimes(ours, theirs, { runs, log });
  return timeFigure({ benchmark: 'parsers', title: `go -json parse, ${GO_TESTS / 1000}k tests, against gotestsum`, a: ours, b: theirs, comparison, maxRatio: 1 });
}

export const parsers = {
  name: 'parsers',
  title: 'the JUnit parser on 100k testcases; the go -json parser against gotestsum on 200k tests',
  async run(options) {
    return [...(await junitFigures(options)), await goFigure(options)];
  },
};
