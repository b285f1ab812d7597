/** `run-tests plan` for go: the packages a change can break, from go's own listing of
 * every package's test build (`go list -deps -test -json ./...`, see graph.ts). Loaded
 * for a plan only. */
import fs from 'node:fs';
import path from 'node:path';
import { runListing } from '../../process/listing.js';
import type { AffectedRequest, AffectedUnits } from '../types.js';
import { BUILT_FILES, goAffected, TEST_FILES, type ListedGoPackage } from './graph.js';
import { listedPackages, listingFlags } from './shard.js';

const FIELDS = ['Dir', 'ImportPath', 'ForTest', 'Module', 'Deps', 'Error', ...BUILT_FILES, ...TEST_FILES];

export async function goChanges(request: AffectedRequest): Promise<AffectedUnits> {
  // The flags go test gets that change what go sees (-tags), never one that lets go
  // write go.mod while planning.
  const flags = withoutModMod(listingFlags(request.runnerArgs ?? []));
  // -e: a package go cannot load is listed with its error, which makes the whole suite.
  const argv = ['go', 'list', '-e', '-deps', '-test', `-json=${FIELDS.join(',')}`, ...flags, '--', './...'];
  // Offline, as planning never fetches; a caller's GOFLAGS=-mod=mod would let go list
  // rewrite go.mod.
  const env = { ...request.env, GOPROXY: 'off', GOFLAGS: withoutModMod((request.env['GOFLAGS'] ?? '').split(/\s+/)).join(' ') };
  const outcome = await runListing({ argv, cwd: request.root, env });
  if (outcome.code !== 0) return { wholeSuite: `go list failed: ${firstErrorLine(outcome.output)}` };
  const real = fs.realpathSync(request.root);
  // go names directories by its working directory, or its real path when the root is a link.
  const relative = (dir: string): string => {
    const base = dir === real || dir.startsWith(`${real}${path.sep}`) ? real : request.root;
    return path.relative(base, dir).split(path.sep).join('/');
  };
  return goAffected({
    packages: listedPackages<ListedGoPackage>(outcome.stdout), relative, root: real,
    changed: request.changed.map((file) => file.path), units: request.units.map((unit) => unit.name),
    exists: (file) => request.facts.exists(file),
  });
}

/** The flags without `-mod=mod` (or `-mod mod`), and without empty words. */
function withoutModMod(flags: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < flags.length; i += 1) {
    const flag = flags[i] ?? '';
    if (flag === '' || /^--?mod=mod$/.test(flag)) continue;
    if (/^--?mod$/.test(flag) && flags[i + 1] === 'mod') i += 1;
    else kept.push(flag);
  }
  return kept;
}

/** go's first line that says what failed: a `go: ` line, else the first line it printed. */
function firstErrorLine(output: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.find((line) => line.startsWith('go: ')) ?? lines[0] ?? 'no output';
}
