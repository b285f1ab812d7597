#!/bin/sh
':' //; if [ -n "$NODE_EXTRA_CA_CERTS" ]; then RUN_TESTS_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; export RUN_TESTS_NODE_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; fi; exec node "$0" "$@"
// Run as a program, the lines above are sh: node reads the whole CA bundle named by
// NODE_EXTRA_CA_CERTS before any code runs (~50 ms), and run-tests opens no TLS
// connection, so its own node starts without it; src/cli/environment.ts gives it back
// to the runner. `node bin/run-tests.js` skips them (a string and a comment to node).
//
// This file is CommonJS (bin/package.json): it runs dist/run-tests.cjs with the code
// cache scripts/build.js wrote for it, so V8 compiles little of it. A cache from another
// build is not used; one V8 rejects (another node) only costs its read. The build wraps
// the bundle in the module function itself and keeps it ASCII, so its text is read as
// latin1 into a one-byte string and handed to V8 as it is: no UTF-8 decoding, and no
// second copy of the bundle for a wrapper (scripts/build.js says what that saved).
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');

const bundle = path.join(__dirname, '../dist/run-tests.cjs');
const cacheFile = path.join(__dirname, '../dist/run-tests.cache');
const source = fs.readFileSync(bundle, 'latin1');
const buildLine = source.slice(0, source.indexOf('\n') + 1);
const cache = readCache();
const script = new vm.Script(source, {
  filename: bundle,
  cachedData: cache,
});
const training = process.env.RUN_TESTS_WRITE_CODE_CACHE;
if (training) process.on('exit', () => fs.writeFileSync(training, Buffer.concat([Buffer.from(buildLine), script.createCachedData()])));
const bundleModule = { exports: {} };
script.runInThisContext()(bundleModule.exports, createRequire(bundle), bundleModule, bundle, path.dirname(bundle));

/** The cache, without its first line, if that line is the bundle's; else undefined. */
function readCache() {
  let bytes;
  try {
    bytes = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const header = Buffer.from(buildLine);
  return bytes.subarray(0, header.length).equals(header) ? bytes.subarray(header.length) : undefined;
}
