import { execFileSync } from 'node:child_process';
import os from 'node:os';

const firstLine = (argv) => {
  try {
    return execFileSync(argv[0], argv.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split('\n')[0].trim();
  } catch {
    return 'not found';
  }
};

/** What the figures were measured on: absolute times only mean something next to this. */
export function describeMachine() {
  const cpus = os.cpus();
  return {
    cores: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}`,
    memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    // Set, node reads that CA bundle before running any code: part of every `node` baseline.
    NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS ? 'set (every node here reads it at start, `node -e 0` included)' : 'not set',
    ruby: firstLine(['ruby', '--version']),
    bundler: firstLine(['bundle', '--version']),
  };
}
