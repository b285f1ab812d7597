import fs from 'node:fs';
import path from 'node:path';
import { command } from '../lib/command.js';
import { figure } from '../lib/figure.js';
import { tempDir } from '../lib/fixtures.js';
import { compareTimes } from '../lib/measure.js';
import { parserScript } from '../lib/parser-bundle.js';

/** Twice the input may take at most this much longer: linear with room for noise and GC;
 * a quadratic parser takes 4×. */
const MAX_RATIO = 2.5;
const MB = 1024 * 1024;

/** Writes `parts(n)` (an iterable of strings) to a new file; returns its path. */
function writeFile(name, parts) {
  const file = path.join(tempDir(`linear-${name}`), name);
  const fd = fs.openSync(file, 'w');
  for (const part of parts) fs.writeSync(fd, part);
  fs.closeSync(fd);
  return file;
}

/** `text` repeated to about `bytes`, in whole repetitions: a cut one (`x &a`) would make a
 * JUnit text malformed XML, which the parser's validator refuses. */
function* repeat(text, bytes) {
  const block = text.repeat(Math.max(1, Math.floor(MB / text.length)));
  for (let left = bytes - (bytes % text.length); left > 0; left -= block.length) yield left >= block.length ? block : block.slice(0, left);
}

function* cases(n, each) {
  for (let i = 0; i < n; i += 1) yield each(i);
}

/** Each case: a parser and an input of size `n` (bytes or tests) that it must read with
 * `tests`/`failed` results. One long line, one long text or attribute, and many records. */
const CASES = [
  {
    name: 'TAP, one long line', module: 'parsers/tap', factory: 'createTapParser', sizes: [16 * MB, 32 * MB], unit: 'MB line',
    file: (n) => writeFile('long.tap', ['TAP version 13\nnot ok 1 - ', ...repeat('x', n), '\n1..1\n']),
    expect: () => 'tests=1 failed=1 complete=true',
  },
  {
    name: 'TAP, many test points', module: 'parsers/tap', factory: 'createTapParser', sizes: [50_000, 100_000], unit: 'tests',
    file: (n) => writeFile('many.tap', ['TAP version 13\n', ...cases(n, (i) => `${i % 10 === 0 ? 'not ok' : 'ok'} ${i + 1} - test ${i}\n`), `1..${n}\n`]),
    expect: (n) => `tests=${n} failed=${n / 10} complete=true`,
  },
  {
    name: 'JUnit, one long failure text', module: 'parsers/junit', factory: 'createJunitParser', sizes: [32 * MB, 64 * MB], unit: 'MB text',
    file: (n) => writeFile('text.xml', ['<testsuite><testcase name="a"><failure>', ...repeat('x &amp; y ', n), '</failure></testcase></testsuite>\n']),
    expect: () => 'tests=1 failed=1 complete=true',
  },
  {
    name: 'JUnit, one long CDATA', module: 'parsers/junit', factory: 'createJunitParser', sizes: [32 * MB, 64 * MB], unit: 'MB CDATA',
    file: (n) => writeFile('cdata.xml', ['<testsuite><testcase name="a"><system-out><![CDATA[', ...repeat('] x ]', n), ']]></system-out></testcase></testsuite>\n']),
    expect: () => 'tests=1 failed=0 complete=true',
  },
  {
    name: 'JUnit, one long attribute', module: 'parsers/junit', factory: 'createJunitParser', sizes: [16 * MB, 32 * MB], unit: 'MB attribute',
    file: (n) => writeFile('attr.xml', ['<testsuite><testcase name="', ...repeat('a>b ', n), '"><failure/></testcase></testsuite>\n']),
    expect: () => 'tests=1 failed=1 complete=true',
  },
  {
    name: 'JUnit, many testcases', module: 'parsers/junit', factory: 'createJunitParser', sizes: [50_000, 100_000], unit: 'tests',
    file: (n) => writeFile('many.xml', ['<testsuites>\n<testsuite name="s">\n', ...cases(n, (i) => `<testcase classname="C" name="t${i}">${i % 10 === 0 ? '<failure message="m">x</failure>' : ''}</testcase>\n`), '</testsuite>\n</testsuites>\n']),
    expect: (n) => `tests=${n} failed=${n / 10} complete=true`,
  },
  {
    name: 'jest --json, one long failure message', module: 'runners/jest/json', factory: 'createJestJsonParser', sizes: [32 * MB, 64 * MB], unit: 'MB message',
    file: (n) => writeFile('long.json', ['{"testResults":[{"name":"/p/a.test.js","status":"failed","assertionResults":[{"ancestorTitles":[],"title":"t","status":"failed","failureMessages":["Error: ', ...repeat('boom\\n    at f (/p/a.test.js:1:1)\\n', n), '"]}]}]}']),
    expect: () => 'tests=1 failed=1 complete=true',
  },
  {
    name: 'rspec JSON, many examples', module: 'runners/rspec/json', factory: 'parseRspecJson', document: true, sizes: [50_000, 100_000], unit: 'tests',
    file: (n) => writeFile('many.json', ['{"version":"3.12.0","examples":[', ...cases(n, (i) => `${i === 0 ? '' : ','}{"id":"./spec/a_spec.rb[1:${i}]","full_description":"A t${i}","status":"${i % 10 === 0 ? 'failed' : 'passed'}","file_path":"./spec/a_spec.rb","line_number":1,"exception":{"class":"RSpec::Expectations::ExpectationNotMetError","message":"m","backtrace":[]}}`),
      `],"summary":{"example_count":${n},"failure_count":${n / 10},"pending_count":0,"errors_outside_of_examples_count":0}}`]),
    expect: (n) => `tests=${n} failed=${n / 10} complete=true`,
  },
];

const label = (c, n) => `${c.name}, ${c.unit === 'tests' ? `${n / 1000}k` : n / MB} ${c.unit}`;

async function linearity(c, { runs, log }) {
  const script = await parserScript(c.module, c.factory, c.document === true);
  const [small, large] = c.sizes.map((n) => {
    const file = c.file(n);
    return command({
      label: label(c, n), argv: [process.execPath, script, file, path.dirname(file)], cwd: path.dirname(file),
      shown: `node <esbuild bundle of src/${c.module}.ts> <${label(c, n)}, ${(fs.statSync(file).size / MB).toFixed(0)} MB>`,
      expectOutput: new RegExp(c.expect(n)),
    });
  });
  log(`${c.name}: ${large.label} against ${small.label}`);
  const comparison = await compareTimes(large, small, { runs, log });
  return figure({
    benchmark: 'linearity', title: `linear: ${c.name}, 2× input`,
    a: { label: large.label, shown: large.shown, median: comparison.a.median, unit: 'ms' },
    b: { label: small.label, shown: small.shown, median: comparison.b.median, unit: 'ms' },
    result: { value: comparison.ratio, unit: '×' }, target: { max: MAX_RATIO, unit: '×' }, runs: comparison.runs,
  });
}

export const linearityBench = {
  name: 'linearity',
  title: 'each import parser on twice the input (a long line, a long text or attribute, many records): time ratio',
  async run(options) {
    const figures = [];
    for (const c of CASES) figures.push(await linearity(c, options));
    return figures;
  },
};
