/* Starts the project's own jest (29 or 30) through its programmatic API (buildArgv +
 * runCLI), the way its `jest` binary would, with run-tests' reporter and selection added
 * as options. process.argv is rewritten to what the project's `jest ...` command line
 * would show, so tests that read process.argv (in band, jest runs them in this process)
 * never see run-tests' options.
 *
 * Not testLocationInResults: jest would format a source-mapped stack for every test to
 * find its definition (~0.5 ms a test, measured); failures carry their stack anyway.
 *
 * CommonJS, as jest's own bin is: jest runs a suite in band (one worker or fewer) in
 * this process, and that ran ~5% slower under an ES module entry (measured).
 *
 * node [node flags] launch.cjs --package <jest dir> (--report <file> | --list)
 *      [--path <path>]... [--name <regex>] -- [the script's jest arguments]
 *
 * --list: jest's own --listTests --json for the same arguments and selection, written
 * for run-tests --shard (../shared/units-out.cjs); nothing runs. --plan [--related <file>]...:
 * jest's --listTests --findRelatedTests <file>... (its haste map's dependencies), and the
 * files its configuration loads around every test file (`setup`), for run-tests plan.
 */
'use strict';
const fs = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const { parseLauncherArgs, pathPattern, NO_TEST_FILES_EXIT } = require('./launch-args.cjs');
const { writeUnits } = require('../shared/units-out.cjs');

const opts = parseLauncherArgs(process.argv.slice(2));
// As jest's own bin/jest.js does before it loads jest.
if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test';
const reporter = path.join(__dirname, 'reporter.cjs');
const requireJest = createRequire(path.join(opts.package, 'package.json'));
const jest = requireJest(opts.package);
const version = String(requireJest(path.join(opts.package, 'package.json')).version);
const major = Number(version.split('.')[0]);

process.argv = [process.execPath, path.join(opts.package, 'bin', 'jest.js'), ...opts.scriptArgs];

/** The reporters the project configured (jest's CLI --reporters would replace them). */
async function configuredReporters(argv, projects) {
  try {
    const requireCli = createRequire(requireJest.resolve('jest-cli'));
    const { readConfigs } = requireCli('jest-config');
    const { globalConfig } = await readConfigs(argv, projects);
    return globalConfig.reporters && globalConfig.reporters.length > 0 ? globalConfig.reporters : ['default'];
  } catch {
    return ['default'];
  }
}

/** jest-cli's buildArgv: jest 30 exports it; jest 29 has it in jest-cli's build/run.js,
 * which its exports map hides from a package require (not from a path require). */
function buildArgv() {
  if (typeof jest.buildArgv === 'function') return jest.buildArgv;
  const cli = path.dirname(requireJest.resolve('jest-cli/package.json'));
  return require(path.join(cli, 'build', 'run.js')).buildArgv;
}

async function main() {
  const argv = await buildArgv()(opts.scriptArgs);
  if (opts.paths.length > 0) {
    argv._ = [];
    // jest 30 renamed --testPathPattern (an array of regexes all the same) to --testPathPatterns.
    argv[major >= 30 ? 'testPathPatterns' : 'testPathPattern'] = opts.paths.map(pathPattern);
  }
  if (opts.name !== null) argv.testNamePattern = opts.name;
  if (opts.list) return listTests(argv);
  // Without it, jest's "No tests found" calls process.exit(1) mid-run, the exit of a real
  // failure; with it, jest returns, and the launcher exits with its own code for that.
  argv.passWithNoTests = true;
  const projects = Array.isArray(argv.projects) && argv.projects.length > 0 ? [...argv.projects] : [process.cwd()];
  argv.reporters = [...(argv.reporters ?? (await configuredReporters(argv, projects))), [reporter, { output: opts.report, version }]];
  const { results, globalConfig } = await jest.runCLI(argv, projects);
  // As jest-cli's readResultsAndExit: the exit code, --forceExit, and no forced exit otherwise.
  const noFiles = results && results.numTotalTestSuites === 0;
  const code = noFiles ? NO_TEST_FILES_EXIT : !results || results.success ? 0 : globalConfig.testFailureExitCode;
  process.on('exit', function exitWithoutTeardown() {
    if (code !== 0) process.exitCode = code;
    // Once the loop is empty and every other exit listener has run, end as process.exit()
    // does: node then skips freeing the heap the run left. On 500 tests, jest's exit to
    // run-tests' exit went 71 -> 37 ms (medians of 9). A listener added after this one
    // still runs: node ends the usual way then.
    const listeners = process.listeners('exit');
    if (listeners[listeners.length - 1] === exitWithoutTeardown) process.exit();
  });
  if (globalConfig.forceExit) process.exit(code);
}

/** jest prints the list of --listTests --json on stdout as one line (jest 29 by
 * console.log, jest 30 by a console of its own on process.stdout): what it wrote there
 * during the listing is kept, and the last line that is a JSON array is the list. */
async function listTests(argv) {
  argv.listTests = true;
  argv.json = true;
  const projects = Array.isArray(argv.projects) && argv.projects.length > 0 ? [...argv.projects] : [process.cwd()];
  const printed = [];
  const write = process.stdout.write;
  process.stdout.write = function keep(chunk, ...rest) {
    printed.push(String(chunk));
    return write.call(this, chunk, ...rest);
  };
  const byFile = opts.related.length > 0 ? relatedByFile() : null;
  if (opts.related.length > 0) {
    // The script's path patterns would be read as changed files: the plan keeps the
    // listed units only.
    argv._ = opts.related;
    argv.findRelatedTests = true;
    // With coverage, jest relates files by another call than resolveInverse.
    argv.coverage = false;
  }
  try {
    await jest.runCLI(argv, projects);
  } finally {
    process.stdout.write = write;
  }
  const list = printed.join('').split('\n').reverse().find((line) => line.trim().startsWith('['));
  if (list === undefined) throw new Error('run-tests launcher: jest --listTests printed no list');
  const related = byFile !== null && Object.keys(byFile).length > 0 ? { related: byFile } : {};
  writeUnits(JSON.parse(list), opts.plan ? { setup: await configuredFiles(argv, projects), ...related } : {});
}

/** --findRelatedTests answers for all its files at once; the plan says which test depends
 * on which file: jest's own resolveInverse (jest-resolve-dependencies, as @jest/core loads
 * it) is asked once more for each file. Null where that module is not found: the plan
 * then names all the files for each test. */
function relatedByFile() {
  let resolver;
  try {
    resolver = createRequire(requireJest.resolve('@jest/core'))('jest-resolve-dependencies').DependencyResolver;
  } catch {
    return null;
  }
  const resolveInverse = resolver?.prototype?.resolveInverse;
  if (typeof resolveInverse !== 'function') return null;
  const byFile = {};
  resolver.prototype.resolveInverse = function resolveEach(paths, filter, options) {
    for (const file of paths) byFile[file] = [...new Set([...(byFile[file] ?? []), ...resolveInverse.call(this, new Set([file]), filter, options)])];
    return resolveInverse.call(this, paths, filter, options);
  };
  return byFile;
}

/** The project's files jest's configuration loads around every test file (setup files,
 * the environment, transforms, resolvers, serializers): a change to one of them, or to
 * what it imports, may change any test. Files below node_modules are packages. */
async function configuredFiles(argv, projects) {
  const requireCli = createRequire(requireJest.resolve('jest-cli'));
  const { globalConfig, configs } = await requireCli('jest-config').readConfigs(argv, projects);
  const named = [globalConfig.globalSetup, globalConfig.globalTeardown, globalConfig.testSequencer];
  for (const config of configs) {
    named.push(...(config.setupFiles ?? []), ...(config.setupFilesAfterEnv ?? []), ...(config.snapshotSerializers ?? []),
      ...(config.transform ?? []).map((entry) => entry[1]), config.globalSetup, config.globalTeardown, config.testEnvironment,
      config.snapshotResolver, config.resolver, config.runner, config.testRunner, config.dependencyExtractor, config.haste?.hasteImplModulePath);
  }
  const own = (file) => typeof file === 'string' && path.isAbsolute(file) && !file.split(path.sep).includes('node_modules') && fs.existsSync(file);
  return [...new Set(named.filter(own))];
}

main().catch((error) => {
  console.error(error?.stack ?? error);
  process.exit(1);
});
