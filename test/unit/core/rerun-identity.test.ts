import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runnerById } from '../../../src/runners/index.js';
import { isFailure, notRun, placeFailures, toRecord } from '../../../src/core/failures.js';
import { rerunRules } from '../../../src/core/rerun.js';
import type { FailedTestRecord, TestResult } from '../../../src/model/results.js';
import { readProjectFacts } from '../../../src/project/facts.js';
import { loadParser, type ParserId } from '../../../src/runners/parsers.js';

/** A rerun must recognise the test it selected by identity, for every runner, whether
 * the test fails again or now passes; parsed from the recorded real outputs, the passing
 * run being the same output with each failing status turned into a pass (what the
 * runner prints once the test is fixed, as far as the parser reads it). */

const outputs = fileURLToPath(new URL('../../fixtures/outputs/', import.meta.url));
const projects = fileURLToPath(new URL('../../fixtures/projects/', import.meta.url));

async function parse(parser: ParserId, text: string, hints?: Record<string, string>): Promise<readonly TestResult[]> {
  const factory = await loadParser(parser);
  const reader = factory({ root: '<root>', ...(hints ? { hints } : {}) });
  reader.push(text);
  return reader.end().tests;
}

interface Case {
  readonly runner: string;
  readonly parser: ParserId;
  readonly recording: string;
  /** The recorded text with every failing status made a pass. */
  readonly fix: (text: string) => string;
  readonly hints?: Record<string, string>;
  /** A fixture project whose sources place failures without a line (Runner.locate). */
  readonly project?: string;
}

type Json = Record<string, unknown>;

/** Each JSON line through `fix`, which may give several lines for one; other lines as they were. */
const eachLine = (fix: (record: Json) => Json | Json[]) => (text: string): string =>
  text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [line];
    const fixed = fix(JSON.parse(line) as Json);
    return (Array.isArray(fixed) ? fixed : [fixed]).map((r) => JSON.stringify(r));
  }).join('\n');

const set = (key: string, from: readonly unknown[], to: unknown, also: Json = {}) => eachLine((r) => (from.includes(r[key]) ? { ...r, [key]: to, ...also } : r));

/** pytest: a failing test passes. */
const pytestFix = set('status', ['failed', 'error'], 'passed', { message: null, location: null });

const CASES: readonly Case[] = [
  { runner: 'rspec', parser: 'rspec-json', recording: 'rspec/mixed.json', fix: (t) => t.replace(/"status":"failed"/g, '"status":"passed"') },
  { runner: 'minitest', parser: 'minitest-jsonl', recording: 'minitest/mixed.jsonl', fix: set('status', ['failed', 'error'], 'passed') },
  { runner: 'jest', parser: 'jest', recording: 'jest/mixed.jsonl', fix: set('status', ['failed', 'error'], 'passed', { message: null, stack: null }) },
  { runner: 'vitest', parser: 'vitest', recording: 'vitest/mixed.jsonl', fix: set('status', ['failed', 'error'], 'passed', { message: null, stack: null }) },
  { runner: 'mocha', parser: 'mocha', recording: 'mocha/mixed.jsonl', fix: set('status', ['failed', 'error'], 'passed', { message: null, stack: null }) },
  { runner: 'node-test', parser: 'node-test', recording: 'node-test/mixed.jsonl', fix: set('status', ['failed', 'error'], 'passed', { message: null, stack: null }) },
  { runner: 'pytest', parser: 'pytest', recording: 'pytest/mixed.jsonl', fix: pytestFix },
  { runner: 'unittest', parser: 'unittest', recording: 'unittest/mixed.jsonl', fix: set('status', ['failed', 'error'], 'passed') },
  // A doctest, whose id names the module whose load_tests adds it.
  { runner: 'unittest', parser: 'unittest', recording: 'unittest/load-tests.jsonl', fix: set('status', ['failed', 'error'], 'passed') },
  { runner: 'go', parser: 'go-json', recording: 'go/mixed.jsonl', fix: set('Action', ['fail'], 'pass'), hints: { module: 'example.com/gomixed' } },
  { runner: 'cargo', parser: 'cargo', recording: 'cargo/mixed.jsonl', fix: set('event', ['failed'], 'ok') },
  { runner: 'cargo', parser: 'cargo', recording: 'cargo/returns-err.jsonl', fix: set('event', ['failed'], 'ok'), project: 'cargo-returns-err' },
];

/** The failures of a recorded run as last-failures.json holds them: placed by the adapter. */
async function recordedFailures(c: Case, tests: readonly TestResult[]): Promise<FailedTestRecord[]> {
  const adapter = runnerById(c.runner);
  const facts = c.project === undefined ? null : readProjectFacts(projects + c.project);
  const locate = adapter?.locate && facts ? (f: Parameters<NonNullable<typeof adapter.locate>>[0]) => adapter.locate!(f, facts) : null;
  return (await placeFailures(tests, locate)).filter(isFailure).map(toRecord);
}

describe.each(CASES)('$runner rerun of $recording', (c) => {
  const rules = rerunRules(runnerById(c.runner)!);
  const text = readFileSync(outputs + c.recording, 'utf8');

  it('matches every recorded test failure to the same test failing again, and passing', async () => {
    const failed = await parse(c.parser, text, c.hints);
    // File-level entries (load errors) are settled by any test of their file, tested apart.
    const records = (await recordedFailures(c, failed)).filter((r) => r.id !== r.file);
    expect(records.length).toBeGreaterThan(0);
    const passed = await parse(c.parser, c.fix(text), c.hints);
    const fixed = passed.filter((t) => records.some((r) => r.id === t.id));
    expect(fixed.map((t) => t.status)).toEqual(records.map(() => 'passed'));
    expect(notRun(records, await placeFailures(failed, null), rules)).toEqual([]);
    expect(notRun(records, passed, rules)).toEqual([]);
  });

  it('does not take another test that answers to the same selector for the recorded one', async () => {
    const records = (await recordedFailures(c, await parse(c.parser, text, c.hints))).filter((r) => r.id !== r.file);
    const others = (await parse(c.parser, c.fix(text), c.hints)).map((t) => ({ ...t, name: `${t.name} (inserted)` }));
    expect(notRun(records, others, rules)).toEqual(records);
  });
});

describe('identity by name and file', () => {
  it('tells an rspec example from the one that took its positional id', async () => {
    const text = readFileSync(`${outputs}rspec/mixed.json`, 'utf8');
    const [record] = (await parse('rspec-json', text)).filter(isFailure).map(toRecord);
    expect(record?.id).toBe('./spec/mixed_spec.rb[1:2]');
    // An example inserted above it now answers to [1:2], and passes.
    const inserted = await parse('rspec-json', text.replace('"full_description":"Calculator subtracts numbers"', '"full_description":"Calculator was inserted"'));
    expect(inserted.find((t) => t.id === record?.id)?.name).toBe('Calculator was inserted');
    expect(notRun([record!], inserted)).toEqual([record]);
  });

  it('needs the id where the runner gives a file only to failures, and tells packages apart', async () => {
    const text = readFileSync(`${outputs}cargo/returns-err.jsonl`, 'utf8');
    const records = await recordedFailures(CASES.at(-1)!, await parse('cargo', text));
    const moved = records.find((r) => r.id === 'cargo_returns_err --test cli flags::rejects_flag_word');
    // Placed in the module file it is defined in; a passing result names the target's crate root.
    expect(moved?.file).toBe('tests/cli/flags.rs');
    const passed = await parse('cargo', CASES.at(-1)!.fix(text));
    expect(passed.find((t) => t.id === moved?.id)?.file).toBe('tests/cli/main.rs');
    expect(notRun([moved!], passed)).toEqual([moved]);
    expect(notRun([moved!], passed, rerunRules(runnerById('cargo')!))).toEqual([]);
    const go = readFileSync(`${outputs}go/mixed.jsonl`, 'utf8');
    const half = (await parse('go-json', go, { module: 'example.com/gomixed' })).filter(isFailure).map(toRecord).find((r) => r.test_name === 'TestHalf');
    const elsewhere = { id: 'example.com/gomixed/other TestHalf', name: 'TestHalf', file: null, line: null, status: 'passed' } as const;
    expect(notRun([half!], [elsewhere])).toEqual([half]);
    expect(notRun([half!], [elsewhere], rerunRules(runnerById('go')!))).toEqual([half]);
  });
});
