import type { ProjectFacts } from '../../project/facts.js';

/** A go package's directory relative to the module root ('' for the root package),
 * from its import path and the module path in go.mod; null for a package outside the
 * module or an unknown module. Shared by the go-json parser and the go adapter. */
export function packageDirOf(importPath: string, module: string | null): string | null {
  if (module === null) return null;
  if (importPath === module) return '';
  return importPath.startsWith(`${module}/`) ? importPath.slice(module.length + 1) : null;
}

/** The `module` directive of go.mod, or null. */
export function modulePath(facts: ProjectFacts): string | null {
  const match = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/m.exec(facts.read('go.mod') ?? '');
  return match?.[2] ?? null;
}
