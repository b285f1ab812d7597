'use strict';
/* --shard's answer from a launcher's --list (jest, vitest, mocha): the test files the run
 * would run, written to the file named by RUN_TESTS_UNITS_OUT as {"files": [...]}
 * (src/ecosystems/listed-units.ts reads it; the project's own output stays on stdout).
 * Relative to the working directory (the project, where run-tests starts the launcher)
 * when inside it: the runners list real paths, and the project's path may hold a link. */
const fs = require('node:fs');
const path = require('node:path');

function writeUnits(files) {
  const out = process.env.RUN_TESTS_UNITS_OUT;
  if (!out) throw new Error('run-tests launcher: --list needs RUN_TESTS_UNITS_OUT');
  const cwd = process.cwd();
  const named = files.map((file) => {
    const relative = path.relative(cwd, file);
    return relative === '' || relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative) ? file : relative;
  });
  fs.writeFileSync(out, JSON.stringify({ files: named }));
}

module.exports = { writeUnits };
