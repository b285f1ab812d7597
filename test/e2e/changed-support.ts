import { execFileSync } from 'node:child_process';
import fs from 'fs-extra';
import path from 'node:path';
import { copyFixture, runCli } from './helpers.js';

/** A fresh temp copy of a fixture project made a git repository with one commit of
 * everything in it: what `run-tests plan` and `--changed` measure a change against. */
export async function gitFixture(name: string): Promise<string> {
  const dir = await copyFixture(name);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'fixture');
  return dir;
}

/** git in `dir`, as a test author would type it, with an identity of its own. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, encoding: 'utf8' });
}

/** Appends a line to a file of the copy (a change git sees). */
export function touch(dir: string, file: string, line = '\n'): void {
  fs.appendFileSync(path.join(dir, file), line);
}

export interface PlannedProject {
  readonly project_root: string;
  readonly framework: string | null;
  readonly plan: Plan | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface Plan {
  readonly base: string | null;
  readonly head: string | null;
  readonly ref: string | null;
  readonly tree: string;
  readonly changed: readonly { readonly file: string; readonly change: string }[];
  readonly units: readonly { readonly unit: string; readonly reasons: readonly string[] }[];
  readonly whole_suite: { readonly reason: string } | null;
}

/** `run-tests plan --json` in `dir`: its exit code and the plan of each project. */
export async function planJson(dir: string, args: readonly string[] = []): Promise<{ exitCode: number | null; projects: readonly PlannedProject[]; stderr: string }> {
  const result = await runCli(['plan', '--json', ...args], { cwd: dir });
  let parsed: { projects: PlannedProject[] };
  try {
    parsed = JSON.parse(result.stdout) as { projects: PlannedProject[] };
  } catch {
    throw new Error(`plan --json printed no JSON (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }
  return { exitCode: result.exitCode, projects: parsed.projects, stderr: result.stderr };
}

/** The one project's plan: its units, each `unit: reason; reason`, sorted. */
export const unitLines = (plan: Plan | null): string[] =>
  (plan?.units ?? []).map((u) => `${u.unit}: ${u.reasons.join('; ')}`).sort();
