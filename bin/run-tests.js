#!/usr/bin/env node
// Loads the CLI that scripts/build.js bundled. CommonJS (bin/package.json): an ES module
// importing the bundle would have node scan all of it for export names first. Where node
// has its own compile cache (22.1 and later), the bundles' compiled code is kept there.
require('node:module').enableCompileCache?.();
require('../dist/run-tests.cjs');
