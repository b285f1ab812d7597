#!/usr/bin/env node
// Loads the CLI that scripts/build.js bundled. CommonJS (bin/package.json): an ES module
// importing the bundle would have node scan all of its 0.9 MB for export names first.
require('../dist/run-tests.cjs');
