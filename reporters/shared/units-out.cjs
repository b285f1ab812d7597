'use strict';
/* --shard's answer from a launcher's --list (jest, vitest, mocha): the test files the run
 * would run, written to the file named by RUN_TESTS_UNITS_OUT as {"files": [...]}
 * (src/ecosystems/listed-units.ts reads it; the project's own output stays on stdout).
 * A plan's listing adds what its configuration loads and what the runner's own graph
 * relates to a change (`more`: src/ecosystems/node/runner-graph.ts reads it).
 * Relative to the working directory (the project, where run-tests starts the launcher)
 * when inside it: the runners list real paths, and the project's path may hold a link. */
const fs = require('node:fs');
const path = require('node:path');

function writeUnits(files, more = {}) {
  const out = process.env.RUN_TESTS_UNITS_OUT;
  if (!out) throw new Error('run-tests launcher: --list needs RUN_TESTS_UNITS_OUT');
  const cwd = process.cwd();
  const name = (file) => {
    const relative = path.relative(cwd, file);
    return relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative) ? file : relative;
  };
  const named = { files: files.map(name) };
  if (more.setup) named.setup = more.setup.map(name);
  // A changed file is named as given (outside the project too: `../shared/x.js`).
  if (more.related) named.related = Object.fromEntries(Object.entries(more.related).map(([file, tests]) => [path.relative(cwd, file), tests.map(name)]));
  if (more.triggers) named.triggers = more.triggers;
  fs.writeFileSync(out, JSON.stringify(named));
}

module.exports = { writeUnits };
