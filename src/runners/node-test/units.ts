import fs from 'node:fs';
import path from 'node:path';
import { HarnessError } from '../../model/errors.js';
import type { ProjectFacts } from '../../project/facts.js';
import { expandDirectories, expandGlobs, isNodeTestFile } from '../../ecosystems/node/files.js';
import { packageJson, testScript } from '../../ecosystems/node/project.js';
import { shardUnits } from '../../ecosystems/listed-units.js';
import type { ShardSupport, UnitsRequest } from '../types.js';

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** node 20 does not expand a glob it is given (node 21 and later do): run-tests expands
 * the script's globs for it, as the shell that runs `npm test` does. */
export const NODE_EXPANDS_GLOBS = NODE_MAJOR >= 21;

export function scriptOperands(facts: ProjectFacts, args: readonly string[]): readonly string[] {
  return NODE_EXPANDS_GLOBS ? args : expandGlobs(facts, args);
}

/** --shard's units: the files `node --test` runs, as the plan gives them (the selection's
 * files, a directory as the test files below it) or, without a selection, as node 20
 * finds them: the script's operands (their globs expanded as npm's shell would), each
 * directory searched as node searches it, or else the project searched from its root.
 * A part names its files, which node runs as they are. */
export const nodeTestShard: ShardSupport = {
  selects: 'files',
  units: async (request) => shardUnits(request.root, nodeTestFiles(request)),
};

function nodeTestFiles({ facts, files }: UnitsRequest): string[] {
  if (files.length > 0) return operandFiles(facts, expandDirectories(facts, files, isNodeTestFile));
  const script = testScript(packageJson(facts) ?? {});
  const operands = script.runner === 'node-test' ? scriptOperands(facts, script.args) : [];
  // node 21 and later find their files by glob patterns of their own (the defaults, or a
  // script's): run-tests knows node 20's search only, and does not guess.
  if (NODE_EXPANDS_GLOBS && !operands.every((operand) => facts.exists(operand) && !facts.isDirectory(operand))) {
    const what = operands.length === 0 ? "node's own search for test files" : `the script's operands (${operands.join(' ')})`;
    throw new HarnessError('RUNNER_UNSUPPORTED', `--shard: node ${process.versions.node} finds the files of ${what} by its own glob patterns, which run-tests cannot list exactly; name the files or directories to shard (run-tests --shard i/n test/)`);
  }
  return operandFiles(facts, operands.length > 0 ? operands : ['.']);
}

/** What node 20 runs for its operands: a file itself, a directory searched. */
function operandFiles(facts: ProjectFacts, operands: readonly string[]): string[] {
  return operands.flatMap((operand) => {
    const relative = path.posix.normalize(operand.replace(/\/+$/, '')) || '.';
    if (!facts.exists(relative)) throw new HarnessError('USAGE', `--shard: node --test would not find ${operand} (in ${facts.root})`, { path: path.join(facts.root, relative) });
    return facts.isDirectory(relative) ? nodeSearch(facts, relative) : [relative];
  });
}

/** node 20's test file names (its kTestFilePattern): `test.js`, `test-x.js`, `x.test.js`,
 * `x-test.js`, `x_test.js`, and .cjs, .mjs. */
const TEST_NAME = /((^test(-.+)?)|(.+[.\-_]test))\.[cm]?js$/;
const SCRIPT = /\.[cm]?js$/;

/** node 20's search of a directory (runner.js processPath): every file with a test name,
 * and every script below a directory named `test`; node_modules below the directory are
 * skipped, dot directories are not. A directory seen before (a link to an ancestor) is
 * not searched twice. */
function nodeSearch(facts: ProjectFacts, start: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (relative: string, underTest: boolean, top: boolean): void => {
    const name = path.basename(path.join(facts.root, relative));
    if (!facts.isDirectory(relative)) {
      if ((underTest && SCRIPT.test(relative)) || TEST_NAME.test(name)) found.push(relative);
      return;
    }
    const real = realPath(path.join(facts.root, relative));
    if ((!top && name === 'node_modules') || seen.has(real)) return;
    seen.add(real);
    for (const entry of facts.list(relative)) walk(relative === '.' ? entry : `${relative}/${entry}`, underTest || name === 'test', false);
  };
  walk(start, false, true);
  return found;
}

function realPath(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}
