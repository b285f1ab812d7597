/** Property tests for every parser: truncated recordings, random bytes and random
 * report-shaped junk never crash a parser and never read as a pass. "A pass" is what
 * the truth rules would call passed: complete, not contradicting itself, at least one
 * test, no failure or error.
 * A cut-off report of a run that had failures must never look like that (unless the
 * cut kept the whole document); random input never may. Seeded, so every run is the same. */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { ParsedReport } from '../../../src/model/results.js';
import { loadParser, PARSER_IDS, type ParserId } from '../../../src/runners/parsers.js';
import { parseText, type ParserFactory } from '../../../src/parsers/stream.js';
import { OUTPUTS, recordings as recorded } from './recordings.js';

const ALL: readonly ParserId[] = PARSER_IDS;

/** mulberry32: small, fast and deterministic. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Recording { readonly file: string; readonly id: ParserId; readonly text: string; readonly ctx: { root: string; hints?: Record<string, string> } }

const factories = new Map<ParserId, ParserFactory>();
for (const id of ALL) factories.set(id, await loadParser(id));

const recordings: Recording[] = recorded().map((r) => ({ file: r.file, id: r.parser, text: readFileSync(OUTPUTS + r.file, 'utf8'), ctx: r.ctx }));

const looksPassed = (r: ParsedReport): boolean => r.complete && (r.contradictions ?? []).length === 0 && r.tests.length > 0 && r.tests.every((t) => t.status !== 'failed' && t.status !== 'error');
const hasFailures = (r: ParsedReport): boolean => r.tests.some((t) => t.status === 'failed' || t.status === 'error');
const parse = (id: ParserId, text: string, ctx: Recording['ctx']): ParsedReport => parseText(factories.get(id) as ParserFactory, text, ctx);

/** Cut points: every line end near the start and the end, and evenly spread ones between. */
function cutPoints(text: string, random: () => number, count = 40): number[] {
  const points = new Set<number>();
  for (let i = 1; i < count; i += 1) points.add(Math.floor((text.length * i) / count));
  for (let i = 0; i < count; i += 1) points.add(Math.floor(random() * text.length));
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) if (at < 400 || at > text.length - 400) points.add(at + 1);
  return [...points].filter((p) => p > 0 && p < text.length && text.slice(0, p).trim() !== text.trim()).sort((a, b) => a - b);
}

describe('every parser, cut off anywhere', () => {
  it('covers the parsers that exist', () => {
    expect([...factories.keys()]).toEqual(expect.arrayContaining(['junit', 'tap', 'jest-json', 'go-json', 'minitest-jsonl', 'rspec-json', 'rspec-stream', 'mocha', 'node-test', 'jest', 'vitest']));
    expect(recordings.length).toBeGreaterThan(30);
  });

  it.each(recordings.map((r) => [r.file, r] as const))('%s: a truncated report never crashes, and never passes when the run had failures', (_file, rec) => {
    const full = parse(rec.id, rec.text, rec.ctx);
    const random = prng(rec.text.length);
    for (const cut of cutPoints(rec.text, random)) {
      const report = parse(rec.id, rec.text.slice(0, cut), rec.ctx);
      if (hasFailures(full) && looksPassed(report)) throw new Error(`${rec.file} cut at ${cut} of ${rec.text.length} reads as a pass: ${JSON.stringify(report).slice(0, 300)}`);
      expect(Array.isArray(report.tests)).toBe(true);
    }
  });
});

/** Report-shaped pieces for junk: enough structure to reach deep into each parser. */
const PIECES = [
  '<?xml version="1.0"?>', '<testsuites>', '</testsuites>', '<testsuite name="s" failures="1">', '</testsuite>', '<testcase classname="c" name="t">', '</testcase>',
  '<testcase name="x"/>', '<failure message="m">', '</failure>', '<error/>', '<skipped/>', '<![CDATA[', ']]>', '<!--', '-->', '&amp;', '&#x41;', '&bogus;', '"', "'", '<', '>', '/>',
  'TAP version 14', '1..2', '1..0', 'ok 1 - a', 'not ok 2 - b', '# Subtest: s', '    ok 1 - c', '  ---', '  ...', "  location: 'x.js:1:1'", 'Bail out!', '# SKIP', '# TODO', '{', '}',
  '{"Action":"run","Package":"p","Test":"TestA"}', '{"Action":"pass","Package":"p","Test":"TestA"}', '{"Action":"fail","Package":"p"}',
  '{"testResults":[', ']', '{"assertionResults":[{"title":"t","status":"passed","ancestorTitles":[]}]}', '"status":"failed"', 'null', '[]', '\n', '\n', '\n', ' ', '\u0000', '\u00e9', '\ud83d\ude00',
];

function junk(random: () => number): string {
  const parts: string[] = [];
  const n = Math.floor(random() * 60);
  for (let i = 0; i < n; i += 1) parts.push(PIECES[Math.floor(random() * PIECES.length)] ?? '');
  return parts.join(random() < 0.5 ? '' : '\n');
}

function bytes(random: () => number): string {
  const buf = Buffer.alloc(Math.floor(random() * 400));
  for (let i = 0; i < buf.length; i += 1) buf[i] = Math.floor(random() * 256);
  return buf.toString('utf8');
}

/** A recording with a few random splices: pieces inserted, spans deleted. */
function mutated(random: () => number): string {
  const rec = recordings[Math.floor(random() * recordings.length)] as Recording;
  let text = rec.text;
  for (let k = 0; k < 3; k += 1) {
    const at = Math.floor(random() * text.length);
    text = random() < 0.5 ? text.slice(0, at) + junk(random) + text.slice(at) : text.slice(0, at) + text.slice(at + Math.floor(random() * 200));
  }
  return text;
}


describe('every parser, random input', () => {
  for (const id of factories.keys()) fuzzRandom(id);
});

function fuzzRandom(id: ParserId): void {
  it(`${id}: random bytes, junk and spliced recordings never crash it; random junk never reads as a pass`, () => {
    const random = prng(0xc0ffee ^ id.length);
    for (let i = 0; i < 300; i += 1) {
      for (const text of [bytes(random), junk(random)]) {
        const report = parse(id, text, { root: '/p' });
        if (looksPassed(report)) throw new Error(`${id} reads random input as a pass: ${JSON.stringify(text).slice(0, 400)}`);
      }
      const report = parse(id, mutated(random), { root: '<root>' });
      expect(typeof report.complete).toBe('boolean');
    }
  });
}
