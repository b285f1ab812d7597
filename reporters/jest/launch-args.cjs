'use strict';
/* The launcher's own arguments (shared by the jest and vitest launchers). */

function parseLauncherArgs(args) {
  const opts = { package: null, report: null, paths: [], name: null, scriptArgs: [] };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') {
      opts.scriptArgs = args.slice(i + 1);
      break;
    }
    const value = args[i + 1];
    if (value === undefined) throw new Error(`run-tests launcher: ${arg} needs a value`);
    i += 1;
    if (arg === '--package') opts.package = value;
    else if (arg === '--report') opts.report = value;
    else if (arg === '--path') opts.paths.push(value);
    else if (arg === '--name') opts.name = value;
    else throw new Error(`run-tests launcher: unknown argument ${arg}`);
  }
  if (opts.package === null || opts.report === null) throw new Error('run-tests launcher: --package and --report are required');
  return opts;
}

const escapeRegex = (text) => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Exactly this file, or everything under this directory, as a path regex. */
const pathPattern = (absolute) => `^${escapeRegex(absolute.replace(/\/+$/, ''))}(?:/|$)`;

module.exports = { parseLauncherArgs, pathPattern };
