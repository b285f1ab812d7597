'use strict';
/* The launcher's own arguments (shared by the jest and vitest launchers). */
const path = require('node:path');

/* run-tests gives absolute paths and shows them relative to the project root, where the
 * command runs: a relative one is taken from the working directory, so the command shown
 * runs the same when typed. path.join keeps a directory's trailing slash. */
const absolute = (file) => (path.isAbsolute(file) ? file : path.join(process.cwd(), file));

function parseLauncherArgs(args) {
  const opts = { package: null, report: null, list: false, paths: [], name: null, scriptArgs: [] };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') {
      opts.scriptArgs = args.slice(i + 1);
      break;
    }
    if (arg === '--list') {
      opts.list = true;
      continue;
    }
    const value = args[i + 1];
    if (value === undefined) throw new Error(`run-tests launcher: ${arg} needs a value`);
    i += 1;
    if (arg === '--package') opts.package = absolute(value);
    else if (arg === '--report') opts.report = absolute(value);
    else if (arg === '--path') opts.paths.push(absolute(value));
    else if (arg === '--name') opts.name = value;
    else throw new Error(`run-tests launcher: unknown argument ${arg}`);
  }
  if (opts.package === null || (opts.report === null && !opts.list)) throw new Error('run-tests launcher: --package and --report (or --list) are required');
  return opts;
}

const escapeRegex = (text) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Exactly this file, or everything under this directory, as a path regex. */
const pathPattern = (absolute) => `^${escapeRegex(absolute.replace(/\/+$/, ''))}(?:/|$)`;

/** The launchers' exit code when the runner itself found no test file to run (jest's
 * "No tests found", vitest's "No test files found", both exit 1 there, as for a real
 * failure): src/ecosystems/node/project.ts lists it as the runs' no-tests exit code. */
const NO_TEST_FILES_EXIT = 4;

module.exports = { parseLauncherArgs, pathPattern, NO_TEST_FILES_EXIT };
