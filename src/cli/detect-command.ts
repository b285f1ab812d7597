import { readProjectFacts } from '../detect/facts.js';
import { detectRunner } from '../detect/detect.js';
import { findProjectRoot } from '../detect/roots.js';
import { displayCommand } from '../core/quote.js';
import { artifactPaths } from '../store/artifacts.js';

export interface DetectionReport {
  readonly schema_version: 1;
  readonly framework: string;
  readonly command: string;
  readonly project_root: string;
  readonly reason: string;
  readonly lines: readonly string[];
}

/** `run-tests detect`: what would run, and why. Plans the command but runs nothing. */
export async function describeDetection(cwd: string, runner: string | null, reportersDir: string): Promise<Omit<DetectionReport, 'lines'> & { lines: string[] }> {
  const root = findProjectRoot(cwd) ?? cwd;
  const facts = readProjectFacts(root);
  const { adapter, reason } = detectRunner(facts, runner);
  const invocation = adapter.plan({ root, facts, files: [], name: null, rerun: null, artifacts: artifactPaths(root), env: {}, reportersDir });
  const command = displayCommand(invocation);
  return {
    schema_version: 1,
    framework: adapter.id,
    command,
    project_root: root,
    reason,
    lines: [`runner:  ${adapter.id}`, `command: ${command}`, `root:    ${root}`, `reason:  ${reason}`],
  };
}
