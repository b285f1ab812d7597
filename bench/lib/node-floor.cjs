// The least a node program that runs `go test -json` and reads its events can cost: it
// starts node, spawns go, reads every byte go writes and prints their count. The go
// benchmark times it beside run-tests and gotestsum, so that what any program on node
// pays (node's start, a pipe read in JavaScript) is told apart from run-tests' own part.
const { spawn } = require('node:child_process');

const child = spawn(process.argv[2], process.argv.slice(3), { stdio: ['ignore', 'pipe', 'inherit'] });
let bytes = 0;
child.stdout.on('data', (chunk) => {
  bytes += chunk.length;
});
child.on('close', (code) => {
  process.stdout.write(`read ${bytes} bytes\n`);
  process.exitCode = code ?? 1;
});
