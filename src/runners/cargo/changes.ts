/** `run-tests plan` for cargo: the targets a change can break, from `cargo metadata`'s
 * members, targets and path dependencies (see crate-graph.ts) and the files the crates
 * include (includes.ts). Loaded for a plan only. */
import fs from 'node:fs';
import path from 'node:path';
import { runListing } from '../../process/listing.js';
import type { AffectedRequest, AffectedUnits } from '../types.js';
import { cargoAffected, type Metadata } from './crate-graph.js';
import { inclusionsOf } from './includes.js';

export async function cargoChanges(request: AffectedRequest): Promise<AffectedUnits> {
  const argv = ['cargo', 'metadata', '--format-version', '1', '--offline', '--no-deps'];
  const outcome = await runListing({ argv, cwd: request.root, env: request.env });
  if (outcome.code !== 0) return { wholeSuite: `cargo metadata failed: ${firstErrorLine(outcome.output)}` };
  const metadata = JSON.parse(outcome.stdout) as Metadata;
  // cargo's paths are real ones: the root's, if it is reached through a link.
  const root = fs.realpathSync(request.root);
  const members = new Set(metadata.workspace_members);
  const memberDirs = metadata.packages.filter((pkg) => members.has(pkg.id)).map((pkg) => path.dirname(pkg.manifest_path));
  return cargoAffected({
    metadata, root,
    changed: request.changed.map((file) => ({ file: path.resolve(root, file.path), shown: file.path })),
    units: request.units.map((unit) => unit.name),
    inclusions: inclusionsOf(memberDirs),
    isCrateDir: (dir) => fs.existsSync(path.join(dir, 'Cargo.toml')),
  });
}

/** cargo's first `error:` line, with the place it points at (` --> Cargo.toml:1:9`),
 * else the first line it printed. */
function firstErrorLine(output: string): string {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const at = lines.findIndex((line) => line.startsWith('error'));
  if (at === -1) return lines[0] ?? 'no output';
  const place = /^--> (.+)$/.exec(lines[at + 1] ?? '')?.[1];
  return place === undefined ? lines[at] ?? '' : `${lines[at] ?? ''} (${place})`;
}
