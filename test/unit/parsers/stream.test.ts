import { describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadParser, type ParserId } from '../../../src/runners/parsers.js';
import { parseText } from '../../../src/parsers/stream.js';
import { expectGolden } from './golden.js';

const outputs = fileURLToPath(new URL('../../fixtures/outputs/', import.meta.url));
/** A recording's extension, replaced to find its sidecars. */
const RECORDING = /\.(?:jsonl?|xml|tap|txt)$/;
/** A recording's context: the root, plus hints the adapter would give (`<case>.context.json`). */
function contextOf(file: string): { root: string; hints?: Record<string, string> } {
  const sidecar = outputs + file.replace(RECORDING, '.context.json');
  return { root: '<root>', ...(existsSync(sidecar) ? JSON.parse(readFileSync(sidecar, 'utf8')) : {}) };
}

/** Each recorded output, with the parser that reads it. */
const recorded: [string, ParserId][] = [
  ...readdirSync(`${outputs}minitest`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`minitest/${f}`, 'minitest-jsonl']),
  ...readdirSync(`${outputs}rspec`).filter((f) => f.endsWith('.stream.jsonl')).map((f): [string, ParserId] => [`rspec/${f}`, 'rspec-stream']),
  ...readdirSync(`${outputs}rspec`).filter((f) => /^[a-z-]+\.json$/.test(f)).map((f): [string, ParserId] => [`rspec/${f}`, 'rspec-json']),
  ...readdirSync(`${outputs}mocha`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`mocha/${f}`, 'mocha']),
  ...readdirSync(`${outputs}node-test`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`node-test/${f}`, 'node-test']),
  ...readdirSync(`${outputs}jest`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`jest/${f}`, 'jest']),
  ...readdirSync(`${outputs}vitest`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`vitest/${f}`, 'vitest']),
  ...readdirSync(`${outputs}go`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`go/${f}`, 'go-json']),
  ...readdirSync(`${outputs}jest-json`).filter((f) => f.endsWith('.json') && !f.endsWith('.expected.json')).map((f): [string, ParserId] => [`jest-json/${f}`, 'jest-json']),
  ...readdirSync(`${outputs}pytest`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`pytest/${f}`, 'pytest']),
  ...readdirSync(`${outputs}unittest`).filter((f) => f.endsWith('.jsonl')).map((f): [string, ParserId] => [`unittest/${f}`, 'unittest']),
  ...readdirSync(`${outputs}cargo`).filter((f) => f.endsWith('.jsonl') || f.endsWith('.txt')).map((f): [string, ParserId] => [`cargo/${f}`, 'cargo']),
  ...readdirSync(`${outputs}junit`).filter((f) => f.endsWith('.xml')).map((f): [string, ParserId] => [`junit/${f}`, 'junit']),
  ...readdirSync(`${outputs}tap`).filter((f) => f.endsWith('.tap')).map((f): [string, ParserId] => [`tap/${f}`, 'tap']),
];

/** Deterministic chunk sizes from 1 to 97 bytes, cutting lines and UTF-8 sequences anywhere. */
function* chunks(text: string): Generator<string> {
  const bytes = Buffer.from(text, 'utf8');
  const decoder = new TextDecoder('utf-8');
  let size = 1;
  for (let at = 0; at < bytes.length; at += size, size = (size * 31 + 7) % 97 + 1) {
    yield decoder.decode(bytes.subarray(at, at + size), { stream: true });
  }
  yield decoder.decode();
}

describe('parsers fed while the report grows', () => {
  it.each(recorded)('%s gives the same report chunk by chunk as whole', async (file, id) => {
    const factory = await loadParser(id);
    const text = readFileSync(outputs + file, 'utf8');
    const ctx = contextOf(file);
    const parser = factory(ctx);
    for (const chunk of chunks(text)) parser.push(chunk);
    expect(parser.end()).toEqual(parseText(factory, text, ctx));
    expectGolden(outputs + file.replace(RECORDING, '.expected.json'), parseText(factory, text, ctx));
  });

  it('covers every recorded output', () => {
    expect(recorded.length).toBeGreaterThanOrEqual(14);
  });
});
