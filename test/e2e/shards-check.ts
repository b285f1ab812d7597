import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import type { ReportedTest, RunReport } from '../../src/model/report.js';
import { sorted } from './expected.js';
import { copyFixture, failures, hasTools, junitTests, REPO, runJson } from './helpers.js';

/** Issue 23's definition of done, on the real runners: the shards of a suite, each run as
 * a CI machine runs it (its own checkout, the same timings file), together run exactly the
 * tests of the whole suite, none twice, and `run-tests merge` of them says what the whole
 * run said; a merge of shards that do not make one whole is `error`. Two test files take
 * three runners each (shards-ruby-python, shards-js-go), so jest's workers share them out. */
interface Case {
  readonly runner: string;
  readonly fixture: string;
  readonly tools: readonly string[];
  /** Files added to every copy: at least four units, so that no shard of four is empty. */
  readonly extra: Readonly<Record<string, string>>;
  /** Every unit of the suite, as `shard.units` names them. */
  readonly units: readonly string[];
  /** The unit a test belongs to, by its file or (go) its package: `{suite, file}` as a
   * shard's `tests` and a JUnit testcase's `classname` and `file` give them. */
  readonly unitOf?: (test: { suite?: string | undefined; file: string | null }) => string | null;
  readonly nodeModules?: boolean;
  readonly env?: NodeJS.ProcessEnv;
}

const GO_MODULE = 'example.com/gopackages';

export const CASES: readonly Case[] = [
  {
    runner: 'minitest',
    fixture: 'minitest-mixed',
    tools: ['ruby', 'bundle', 'rake'],
    extra: {
      'test/extra_one_test.rb': 'require "test_helper"\n\nclass ExtraOneTest < Minitest::Test\n  def test_passes\n    assert true\n  end\n\n  def test_fails\n    assert_equal 1, 2\n  end\nend\n',
      'test/extra_two_test.rb': 'require "test_helper"\n\nclass ExtraTwoTest < Minitest::Test\n  def test_passes\n    assert true\n  end\nend\n',
    },
    units: ['test/extra_one_test.rb', 'test/extra_two_test.rb', 'test/text_test.rb', 'test/widget_test.rb'],
  },
  {
    runner: 'rspec',
    fixture: 'rspec-mixed',
    tools: ['ruby', 'bundle', 'rspec'],
    extra: {
      'spec/extra_one_spec.rb': 'RSpec.describe "Extra one" do\n  it "passes" do\n    expect(1).to eq(1)\n  end\n\n  it "fails" do\n    expect(1).to eq(2)\n  end\nend\n',
      'spec/extra_two_spec.rb': 'RSpec.describe "Extra two" do\n  it "passes" do\n    expect(2).to eq(2)\n  end\nend\n',
    },
    units: ['spec/extra_one_spec.rb', 'spec/extra_two_spec.rb', 'spec/mixed_spec.rb', 'spec/second_spec.rb'],
  },
  {
    runner: 'jest',
    fixture: 'jest-mixed',
    tools: [],
    nodeModules: true,
    extra: {
      'test/extra.test.js': "test('extra passes', () => {\n  expect(1).toBe(1);\n});\n\ntest('extra fails', () => {\n  expect(1).toBe(2);\n});\n",
    },
    units: ['test/broken.test.js', 'test/extra.test.js', 'test/math.test.js', 'test/second.test.js'],
  },
  {
    runner: 'vitest',
    fixture: 'vitest-mixed',
    tools: [],
    nodeModules: true,
    extra: {
      'test/extra.test.ts': "import { expect, test } from 'vitest';\n\ntest('extra passes', () => {\n  expect(1).toBe(1);\n});\n\ntest('extra fails', () => {\n  expect(1).toBe(2);\n});\n",
    },
    units: ['test/broken.test.ts', 'test/extra.test.ts', 'test/math.test.ts', 'test/second.test.ts'],
  },
  {
    runner: 'pytest',
    fixture: 'pytest-mixed',
    tools: ['python3', 'pytest-3'],
    extra: {
      'tests/test_extra_one.py': 'def test_passes():\n    assert 1 == 1\n\n\ndef test_fails():\n    assert 1 == 2\n',
      'tests/test_extra_two.py': 'def test_passes():\n    assert 2 == 2\n',
    },
    units: ['tests/test_extra_one.py', 'tests/test_extra_two.py', 'tests/test_text.py', 'tests/test_widget.py'],
  },
  {
    runner: 'go',
    fixture: 'go-packages',
    tools: ['go'],
    extra: {},
    units: ['.', 'bad', 'lib', 'lib/deep'],
    // A package's import path, below the module's.
    unitOf: ({ suite }) => (suite === undefined ? null : suite === GO_MODULE ? '.' : suite.replace(`${GO_MODULE}/`, '')),
    env: { GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' },
  },
];

/** A shard report as CI keeps it: the file its job uploads. */
interface Shard {
  readonly file: string;
  readonly report: RunReport & Required<Pick<RunReport, 'shard' | 'tests'>>;
}

const OUTCOME: Record<ReportedTest['status'], string> = { passed: 'passed', failed: 'failure', error: 'error', skipped: 'skipped', flaky: 'flaky' };

/** A shard's tests as junitTests lists a run's: [file, name, outcome] (a testcase without
 * a file, as go's passed tests are, has the file "undefined" there). */
const rows = (tests: readonly ReportedTest[]): [string, string, string][] => tests.map((t) => [t.file ?? 'undefined', t.name, OUTCOME[t.status]]);

const byFile = ({ file }: { file: string | null }): string | null => file;

/** A JUnit file whose testcases of the slow unit took 1,000 s each, every other 1 ms. */
function slowJunit(xml: string, isSlow: (test: { suite?: string | undefined; file: string | null }) => boolean): string {
  return xml.replace(/<testcase\b[^>]*>/g, (tag) => {
    const attribute = (name: string): string | undefined => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
    const time = isSlow({ suite: attribute('classname'), file: attribute('file') ?? null }) ? '1000.000' : '0.001';
    return tag.replace(/\btime="[^"]*"/, `time="${time}"`);
  });
}

/** The checks, for the runners named. */
export const describeShards = (runners: readonly string[]): void => describe.each(CASES.filter((c) => runners.includes(c.runner)))('--shard and merge on $runner', (c) => {
  const present = hasTools(...c.tools);
  if (!present) return void it.skip(`needs ${c.tools.join(', ')}`, () => undefined);

  const unitOf = c.unitOf ?? byFile;
  let out: string;
  let full: RunReport;
  let fullJunit: [string, string, string][];
  /** The full run's report: the timings file every shard reads. */
  let timings: string;
  const shardsOf = new Map<number, Shard[]>();
  const checkouts: string[] = [];

  /** A fresh checkout of the project, as each CI machine has its own. */
  async function project(): Promise<string> {
    const dir = await copyFixture(c.fixture);
    checkouts.push(dir);
    for (const [file, text] of Object.entries(c.extra)) await fs.outputFile(path.join(dir, file), text);
    if (c.nodeModules === true) await fs.symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'));
    return dir;
  }

  async function runShard(k: number, n: number, timingsFile: string, name = `shard-${n}-${k}.json`): Promise<Shard> {
    const dir = await project();
    const { exitCode, report } = await runJson(['--cwd', dir, '--shard', `${k}/${n}`, '--timings', timingsFile], { env: c.env });
    expect(exitCode).toBe(report.exit_code);
    expect(report.shard).toMatchObject({ index: k, count: n });
    const file = path.join(out, name);
    await fs.writeJson(file, report);
    return { file, report: report as Shard['report'] };
  }

  /** The n shards of one partition, side by side, each in its own checkout. */
  const runShards = (n: number, timingsFile: string): Promise<Shard[]> =>
    Promise.all(Array.from({ length: n }, (_, i) => runShard(i + 1, n, timingsFile)));

  const merge = (files: readonly string[], junit?: string) =>
    runJson(['merge', ...files, ...(junit === undefined ? [] : ['--junit', junit])], { cwd: out, env: c.env });

  beforeAll(async () => {
    out = fs.realpathSync(await fs.mkdtemp(path.join(os.tmpdir(), `run-tests-shards-${c.runner}-`)));
    const dir = await project();
    const fullXml = path.join(out, 'full.xml');
    ({ report: full } = await runJson(['--cwd', dir, '--junit', fullXml], { env: c.env }));
    expect(full.status).toBe('failed');
    fullJunit = await junitTests(fullXml);
    timings = path.join(out, 'full.json');
    await fs.writeJson(timings, full);
  });

  afterAll(async () => {
    await Promise.all([out, ...checkouts].filter(Boolean).map((dir) => fs.remove(dir)));
  });

  it.each([1, 2, 3, 4])('%i shard(s): every test once, and merge gives the whole run', async (n) => {
    const shards = await runShards(n, timings);
    shardsOf.set(n, shards);
    // One partition, covering every unit once.
    expect(new Set(shards.map((s) => s.report.shard.partition)).size).toBe(1);
    const units = shards.flatMap((s) => s.report.shard.units);
    expect([...units].sort()).toEqual(c.units);
    expect(shards.every((s) => s.report.shard.units.length > 0)).toBe(true);
    // Each shard ran the tests of its units, no other; together every test, none twice.
    for (const s of shards) {
      const own = new Set(s.report.shard.units);
      expect(s.report.tests.filter((t) => !own.has(unitOf(t) ?? '\0'))).toEqual([]);
    }
    const tests = shards.flatMap((s) => s.report.tests);
    expect(new Set(tests.map((t) => `${t.suite ?? ''}\0${t.file ?? ''}\0${t.name}`)).size).toBe(tests.length);
    const ran = rows(tests);
    expect(sorted(ran)).toEqual(sorted(fullJunit));
    // The merge says what the whole run said.
    const mergedXml = path.join(out, `merged-${n}.xml`);
    const { exitCode, report } = await merge(shards.map((s) => s.file), mergedXml);
    expect([report.source, report.status, exitCode]).toEqual(['merged', full.status, full.exit_code]);
    expect(report.summary).toEqual(full.summary);
    expect(sorted(failures(report))).toEqual(sorted(failures(full)));
    expect(report.parts?.map((p) => p.index)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(Object.keys(report.unit_durations ?? {}).sort()).toEqual(Object.keys(full.unit_durations ?? {}).sort());
    expect(await junitTests(mergedXml)).toEqual(fullJunit);
  });

  /** The timings a slow `unit` gives, every other unit taking 1 ms. */
  let slow: string;
  const crafted = new Map<string, Shard>();

  it.each(['json', 'junit'])('balances by the durations a %s timings file gives: a slow unit sits alone', async (kind) => {
    // The unit to make slow shares its part of two with another unit today, and its tests
    // have durations (a file that fails to load has none to read from JUnit).
    const base = shardsOf.get(2)?.find((s) => s.report.shard.units.length > 1);
    slow = base?.report.shard.units.find((u) => full.unit_durations?.[u] !== undefined) as string;
    expect(typeof slow).toBe('string');
    const file = path.join(out, `slow.${kind === 'json' ? 'json' : 'xml'}`);
    if (kind === 'json') {
      await fs.writeJson(file, { ...full, unit_durations: Object.fromEntries(c.units.map((u) => [u, u === slow ? 1e6 : 1])) });
    } else {
      await fs.writeFile(file, slowJunit(await fs.readFile(path.join(out, 'full.xml'), 'utf8'), (t) => unitOf(t) === slow));
    }
    // Shard 1 of 2 is enough: its part is the slow unit alone, or every other unit.
    const shard = await runShard(1, 2, file, `shard-${kind}-2-1.json`);
    crafted.set(kind, shard);
    expect(shard.report.shard.balanced_by).toBe(`--timings ${file}`);
    expect([[slow], c.units.filter((u) => u !== slow)]).toContainEqual(shard.report.shard.units);
  });

  it("takes the merged report as the next run's --timings (the loop docs/ci.md sets up)", async () => {
    const merged = path.join(out, 'merged-2.json');
    const { report } = await merge((shardsOf.get(2) ?? []).map((s) => s.file));
    await fs.writeJson(merged, report);
    const shard = await runShard(1, 2, merged, 'shard-next-2-1.json');
    expect(shard.report.shard.balanced_by).toBe(`--timings ${merged}`);
    expect(shard.report.warnings.filter((w) => w.includes('--timings'))).toEqual([]);
    expect(shard.report.shard.total_units).toBe(c.units.length);
  });

  it('refuses a merge with a shard missing, doubled or of another partition (error, exit 3)', async () => {
    const four = shardsOf.get(4) ?? [];
    const two = shardsOf.get(2) ?? [];
    expect([four.length, two.length]).toEqual([4, 2]);
    const files = four.map((s) => s.file);
    const refused = async (given: string[], says: RegExp) => {
      const { exitCode, report } = await merge(given);
      expect([report.status, exitCode, report.error?.code]).toEqual(['error', 3, 'MERGE_INVALID']);
      expect(report.error?.message).toMatch(says);
      expect(report.summary).toEqual({ run: null, passed: null, failures: null, errors: null, skips: null });
    };
    await refused(files.slice(0, 3), /missing shard 4 of 4/);
    await refused([...files, files[1] as string], /shard 2 of 4 given twice/);
    // Shard 2 of a partition of two: another count.
    await refused([files[0] as string, two[1]?.file as string, files[2] as string, files[3] as string], /another partition/);
    // Shard 1 of two dealt from other timings, beside shard 2 of two.
    const other = crafted.get('json');
    expect(other?.report.shard.partition).not.toBe(two[1]?.report.shard.partition);
    await refused([other?.file as string, two[1]?.file as string], /another partition/);
  });
});
