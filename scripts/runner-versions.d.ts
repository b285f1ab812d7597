/** Types of runner-versions.js, which scripts/install-runner-versions.js runs untyped. */
export interface RunnerVersion {
  readonly runner: 'jest' | 'vitest' | 'mocha' | 'node';
  readonly packages: Readonly<Record<string, string>>;
}
export const RUNNER_VERSIONS: Readonly<Record<string, RunnerVersion>>;
export function cacheRoot(): string;
export function versionDir(id: string): string;
export function isInstalled(id: string): boolean;
export function markInstalled(dir: string): void;
