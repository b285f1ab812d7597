import { readProjectFacts } from '../detect/facts.js';
import { detectRunner } from '../detect/detect.js';
import { findProjectRoot } from '../detect/roots.js';
import { displayCommand } from '../core/quote.js';
import { artifactPaths } from '../store/artifacts.js';

/** What `run-tests detect --json` prints. */
export interface DetectionReport {
  readonly schema_version: 1;
  readonly framework: string;
  readonly command: string;
  /** The exact argv run-tests would spawn (no shell). */
  readonly argv: readonly string[];
  /** How the runner's environment differs from run-tests' own. */
  readonly env: { readonly set: Readonly<Record<string, string>>; readonly unset: readonly string[] };
  readonly project_root: string;
  readonly reason: string;
}

/** `run-tests detect`: what would run, and why. Plans the command but runs nothing. */
export function describeDetection(cwd: string, runner: string | null, reportersDir: string, env: NodeJS.ProcessEnv): { report: DetectionReport; lines: string[] } {
  const root = findProjectRoot(cwd) ?? cwd;
  const facts = readProjectFacts(root);
  const { adapter, reason } = detectRunner(facts, runner);
  const invocation = adapter.plan({ root, facts, files: [], name: null, rerun: null, artifacts: artifactPaths(root), env, reportersDir });
  const command = displayCommand(invocation);
  const set = Object.fromEntries(Object.entries(invocation.env).filter((e): e is [string, string] => e[1] !== undefined && env[e[0]] !== e[1]));
  const unset = Object.keys(env).filter((key) => invocation.env[key] === undefined).sort();
  return {
    report: { schema_version: 1, framework: adapter.id, command, argv: invocation.argv, env: { set, unset }, project_root: root, reason },
    lines: [`runner:  ${adapter.id}`, `command: ${command}`, `root:    ${root}`, `reason:  ${reason}`],
  };
}
