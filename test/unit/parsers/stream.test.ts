import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { loadParser, PARSER_IDS } from '../../../src/runners/parsers.js';
import { parseText } from '../../../src/parsers/stream.js';
import { expectGolden } from './golden.js';
import { expectedFileOf, OUTPUTS, recordings } from './recordings.js';

const recorded = recordings();

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
  it.each(recorded.map((r) => [r.file, r] as const))('%s gives the same report chunk by chunk as whole', async (_file, recording) => {
    const factory = await loadParser(recording.parser);
    const text = readFileSync(OUTPUTS + recording.file, 'utf8');
    const parser = factory(recording.ctx);
    for (const chunk of chunks(text)) parser.push(chunk);
    expect(parser.end()).toEqual(parseText(factory, text, recording.ctx));
    expectGolden(expectedFileOf(recording), parseText(factory, text, recording.ctx));
  });

  it('has a recording for every parser', () => {
    expect([...new Set(recorded.map((r) => r.parser))].sort()).toEqual([...PARSER_IDS].sort());
  });
});
