import { readProjectFacts } from '../project/facts.js';
import { detectRunner } from '../detect/detect.js';
import { findProjectRoot } from '../detect/roots.js';
import { workspaceTests } from '../detect/workspaces.js';
import { displayCommand } from '../core/quote.js';
import { artifactPaths, PLACEHOLDER_RUN_ID } from '../store/artifacts.js';

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
  /** A workspaces root whose tests are its workspaces': what runs in each (argv and env
   * are then theirs, the root's are empty). */
  readonly projects?: readonly DetectionReport[];
}

/** `run-tests detect`: what would run, and why. Plans the command but runs nothing. */
export function describeDetection(cwd: string, runner: string | null, reportersDir: string, env: NodeJS.ProcessEnv): { report: DetectionReport; lines: string[] } {
  const root = findProjectRoot(cwd) ?? cwd;
  const workspaces = workspaceTests(root);
  if (workspaces === null || workspaces.dirs.length === 0) return describeProject(root, runner, reportersDir, env);
  const projects = workspaces.dirs.map((dir) => describeProject(dir, runner, reportersDir, env));
  const reports = projects.map((p) => p.report);
  return {
    report: {
      schema_version: 1,
      framework: [...new Set(reports.map((r) => r.framework))].join('+'),
      command: reports.map((r) => r.command).join(' ; '),
      argv: [],
      env: { set: {}, unset: [] },
      project_root: root,
      reason: workspaces.reason,
      projects: reports,
    },
    lines: [`root:    ${root}`, `reason:  ${workspaces.reason}`, ...projects.flatMap((p) => ['', ...p.lines])],
  };
}

function describeProject(root: string, runner: string | null, reportersDir: string, env: NodeJS.ProcessEnv): { report: DetectionReport; lines: string[] } {
  const facts = readProjectFacts(root);
  const detection = detectRunner(facts, runner);
  const { adapter } = detection;
  const invocation = adapter.plan({ root, facts, files: [], name: null, rerun: null, artifacts: artifactPaths(root, PLACEHOLDER_RUN_ID), env, reportersDir });
  const command = displayCommand(invocation);
  // As a run's report gives it: why the command differs from the project's own script.
  const reason = [detection.reason, ...(invocation.notes ?? [])].join('; ');
  const set = Object.fromEntries(Object.entries(invocation.env).filter((e): e is [string, string] => e[1] !== undefined && env[e[0]] !== e[1]));
  const unset = Object.keys(env).filter((key) => invocation.env[key] === undefined).sort();
  return {
    report: { schema_version: 1, framework: adapter.id, command, argv: invocation.argv, env: { set, unset }, project_root: root, reason },
    lines: [`runner:  ${adapter.id}`, `command: ${command}`, `root:    ${root}`, `reason:  ${reason}`],
  };
}
