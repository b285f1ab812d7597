import path from 'node:path';
import { mochaTestFile } from './spec.js';
import { expandDirectories, fileOperand } from '../../ecosystems/node/files.js';
import { localBin, packageJson, testScript, type LauncherContext } from '../../ecosystems/node/project.js';
import { listedUnits, reportersDir } from '../../ecosystems/listed-units.js';
import { scriptEnv } from '../../ecosystems/node/units.js';
import { supportedPackage } from '../../ecosystems/node/versions.js';
import type { ShardSupport, UnitsRequest } from '../types.js';

/** What one mocha process runs: files (none = the project's own spec) and a grep. */
export interface Selection {
  readonly files: readonly string[];
  readonly grep: string | null;
}

/** The launcher's command (reporters/mocha/launcher.cjs) for a selection: `output` is
 * `--report <file>` for a run, `--list` for the listing of the files it would load. */
export function mochaCommand(context: LauncherContext, output: readonly string[]): (selection: Selection) => string[] {
  const { facts } = context;
  const script = testScript(packageJson(facts) ?? {});
  const own = script.runner === 'mocha';
  const dir = supportedPackage(facts, 'mocha');
  const bin = localBin(facts, 'mocha');
  const launcher = path.join(context.reportersDir, 'mocha', 'launcher.cjs');
  return (selection) => [
    'node', ...(own ? script.nodeArgs : []), launcher, ...(own ? script.args : []), ...(context.runnerArgs ?? []),
    '--run-tests', '--mocha', dir, '--bin', bin, ...output,
    ...(selection.grep === null ? [] : ['--grep', selection.grep]),
    ...selection.files.map(fileOperand),
  ];
}

/** The files run-tests names to mocha for a selection: a directory is the test files
 * below it (mocha would look in its top level only). */
export function mochaFiles(request: Pick<UnitsRequest, 'facts' | 'files'>): string[] {
  const script = testScript(packageJson(request.facts) ?? {});
  return expandDirectories(request.facts, request.files, mochaTestFile(request.facts, script.runner === 'mocha' ? script.args : []));
}

/** --shard's units: the spec files mocha's own collect-files finds for the run's
 * arguments and files (rc files, package.json "mocha", spec, --recursive, --extension,
 * --ignore), listed by the launcher with mocha's CLI. A part names its files, which mocha
 * loads as they are. --file's files are loaded by every part, as by every run. */
export const mochaShard: ShardSupport = {
  selects: 'files',
  async units(request) {
    const argv = mochaCommand({ ...request, reportersDir: reportersDir(request) }, ['--list'])({ files: mochaFiles(request), grep: null });
    return listedUnits(request.root, { argv, cwd: request.root, env: scriptEnv(request, 'mocha'), what: "mocha's spec files" });
  },
};
