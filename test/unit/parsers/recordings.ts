/** The recorded real outputs under test/fixtures/outputs/, each with the parser that
 * reads it. Each directory's recordings.json says which files are recordings (by how
 * their names end) and for which parser: a new runner adds its directory, and every
 * test that walks the recordings (stream, fuzz, golden) covers it. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ParserId } from '../../../src/runners/parsers.js';

export const OUTPUTS = fileURLToPath(new URL('../../fixtures/outputs/', import.meta.url));

/** Files beside a recording: its expected result, its context, the directory's manifest. */
const SIDECAR = /(?:\.expected\.json|\.context\.json|^recordings\.json)$/;
/** A recording's extension, replaced to find its sidecars. */
export const RECORDING = /\.(?:jsonl?|xml|tap|txt)$/;

export interface Recording {
  /** Relative to OUTPUTS: `<dir>/<file>`. */
  readonly file: string;
  readonly parser: ParserId;
  /** The root, plus the hints the runner would give (`<case>.context.json`). */
  readonly ctx: { readonly root: string; readonly hints?: Record<string, string> };
}

interface Manifest { readonly recordings: readonly { readonly suffix: string; readonly parser: ParserId }[] }

export function recordings(): Recording[] {
  return readdirSync(OUTPUTS).sort().flatMap((dir) => {
    const manifest = JSON.parse(readFileSync(`${OUTPUTS}${dir}/recordings.json`, 'utf8')) as Manifest;
    return readdirSync(`${OUTPUTS}${dir}`).sort().flatMap((name) => {
      if (SIDECAR.test(name)) return [];
      const rule = manifest.recordings.find((r) => name.endsWith(r.suffix));
      if (rule === undefined) throw new Error(`${dir}/${name} is no recording by ${dir}/recordings.json, nor a sidecar of one`);
      const file = `${dir}/${name}`;
      const sidecar = OUTPUTS + file.replace(RECORDING, '.context.json');
      return [{ file, parser: rule.parser, ctx: { root: '<root>', ...(existsSync(sidecar) ? JSON.parse(readFileSync(sidecar, 'utf8')) : {}) } }];
    });
  });
}

export const expectedFileOf = (recording: Recording): string => OUTPUTS + recording.file.replace(RECORDING, '.expected.json');
