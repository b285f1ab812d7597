'use strict';
/* The launcher's own arguments (shared by the jest and vitest launchers). */
const fs = require('node:fs');
const path = require('node:path');

/* run-tests gives absolute paths and shows them relative to the project root, where the
 * command runs: a relative one is taken from the working directory, so the command shown
 * runs the same when typed. path.join keeps a directory's trailing slash. */
const absolute = (file) => (path.isAbsolute(file) ? file : path.join(process.cwd(), file));

/* The runners know a file by its real path (the project's path may hold a link). */
function realPath(file) {
  try {
    return fs.realpathSync(file);
  } catch {
    return file;
  }
}

function parseLauncherArgs(args) {
  const opts = { package: null, report: null, list: false, plan: false, paths: [], related: [], name: null, scriptArgs: [] };
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
    // --list for run-tests plan: with the --related files' tests, what the config loads.
    if (arg === '--plan') {
      opts.list = true;
      opts.plan = true;
      continue;
    }
    const value = args[i + 1];
    if (value === undefined) throw new Error(`run-tests launcher: ${arg} needs a value`);
    i += 1;
    if (arg === '--package') opts.package = absolute(value);
    else if (arg === '--report') opts.report = absolute(value);
    else if (arg === '--path') opts.paths.push(absolute(value));
    else if (arg === '--related') opts.related.push(realPath(absolute(value)));
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
