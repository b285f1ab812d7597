/** The files of a JavaScript project that are the whole suite by what they are, whatever
 * the graph says: what installs the packages, and the configuration every test runs under. */
import path from 'node:path';
import type { ProjectFacts } from '../../project/facts.js';
import { packageJson, testScript } from './project.js';
import type { NodeRunnerId } from './script.js';

/** What decides which packages are installed, and how. */
const INSTALL = new Set(['package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'bun.lock', 'bun.lockb',
  '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs']);

/** Configuration that every test runs under: the package (its dependencies, `type`,
 * `imports`, a "jest" or "mocha" section), TypeScript's, the transpilers', the runners'. */
const CONFIGS: readonly RegExp[] = [
  /^package\.json$/, /^[tj]sconfig(?:\..+)?\.json$/,
  /^babel\.config\.[cm]?[jt]s(?:on)?$/, /^\.babelrc(?:\.[cm]?js(?:on)?)?$/, /^\.swcrc$/, /^\.browserslistrc$/,
  /^jest\.config\./, /^jest-preset\./, /^(?:vitest|vite)\.config\./, /^vitest\.(?:workspace|projects)\./, /^\.mocharc(?:\..+)?$/,
];

/** A runner's configuration is also the file its script names (`jest --config x`; mocha's
 * `-c` is --colors). */
export function configNamed(facts: ProjectFacts, runner: NodeRunnerId, runnerArgs: readonly string[] = []): string[] {
  const script = testScript(packageJson(facts) ?? {});
  const args = [...(script.runner === runner ? script.args : []), ...runnerArgs];
  const short = runner === 'jest' || runner === 'vitest' ? ['-c'] : [];
  const named: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    if (arg.startsWith('--config=')) named.push(arg.slice('--config='.length));
    else if ((arg === '--config' || short.includes(arg)) && args[i + 1] !== undefined) named.push(args[(i += 1)] ?? '');
  }
  return named.map((file) => path.posix.normalize(file.split(path.sep).join('/')).replace(/^\.\//, ''));
}

/** Why a changed file is the whole suite by what it is, or null. */
export function wholeSuiteByName(file: string, runner: NodeRunnerId, named: readonly string[]): string | null {
  const name = file.split('/').at(-1) ?? '';
  if (INSTALL.has(name)) return `${file} changed: it decides which packages every test loads`;
  if (named.includes(file) || CONFIGS.some((pattern) => pattern.test(name))) return `${file} changed: a configuration every test runs under`;
  if ((runner === 'jest' || runner === 'vitest') && file.split('/').includes('__mocks__')) {
    return `${file} is a manual mock: ${runner} may load it in place of any module`;
  }
  return null;
}

/** The configuration files that are modules (jest.config.ts, vitest.config.mjs, a
 * babel.config.js, the script's --config): what they import is configuration too. */
export function configEntries(facts: ProjectFacts, named: readonly string[]): string[] {
  const top = facts.list('.').filter((file) => !facts.isDirectory(file) && CONFIGS.some((pattern) => pattern.test(file)));
  return [...top, ...named.filter((file) => facts.exists(file) && !file.startsWith('../'))].filter((file) => /\.[cm]?[jt]s$/.test(file));
}
