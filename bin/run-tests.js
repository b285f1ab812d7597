#!/bin/sh
':' //; if [ -n "$NODE_EXTRA_CA_CERTS" ]; then RUN_TESTS_NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"; export RUN_TESTS_NODE_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; fi; exec node "$0" "$@"
// Run as a program, the lines above are sh: node reads the whole CA bundle named by
// NODE_EXTRA_CA_CERTS before any code runs (~50 ms), and run-tests opens no TLS
// connection, so its own node starts without it; src/cli/environment.ts gives it back
// to the runner. `node bin/run-tests.js` skips them (a string and a comment to node).
import '../dist/run-tests.js';
