/* Starts the project's own jest through its programmatic API (buildArgv + runCLI), the
 * way its `jest` binary would, with run-tests' reporter and selection added as options.
 * process.argv is rewritten to what the project's `jest ...` command line would show,
 * so tests that read process.argv (in band, jest runs them in this process) never see
 * run-tests' options.
 *
 * Not testLocationInResults: jest would format a source-mapped stack for every test to
 * find its definition (~0.5 ms a test, measured); failures carry their stack anyway.
 *
 * node [node flags] launch.mjs --package <jest dir> --report <file>
 *      [--path <absolute path>]... [--name <regex>] -- [the script's jest arguments]
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLauncherArgs, pathPattern } from './launch-args.mjs';

const opts = parseLauncherArgs(process.argv.slice(2));
// As jest's own bin/jest.js does before it loads jest.
if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test';
const reporter = path.join(path.dirname(fileURLToPath(import.meta.url)), 'reporter.cjs');
const requireJest = createRequire(path.join(opts.package, 'package.json'));
const jest = requireJest(opts.package);

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

try {
  const argv = await jest.buildArgv(opts.scriptArgs);
  if (opts.paths.length > 0) {
    argv._ = [];
    argv.testPathPatterns = opts.paths.map(pathPattern);
  }
  if (opts.name !== null) argv.testNamePattern = opts.name;
  const projects = Array.isArray(argv.projects) && argv.projects.length > 0 ? [...argv.projects] : [process.cwd()];
  argv.reporters = [...(argv.reporters ?? (await configuredReporters(argv, projects))), [reporter, { output: opts.report }]];
  const { results, globalConfig } = await jest.runCLI(argv, projects);
  // As jest-cli's readResultsAndExit: the exit code, --forceExit, and no forced exit otherwise.
  const code = !results || results.success ? 0 : globalConfig.testFailureExitCode;
  process.on('exit', () => {
    if (code !== 0) process.exitCode = code;
  });
  if (globalConfig.forceExit) process.exit(code);
} catch (error) {
  console.error(error?.stack ?? error);
  process.exit(1);
}
