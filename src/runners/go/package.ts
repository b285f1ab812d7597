import type { ProjectFacts } from '../../project/facts.js';

/** A go package's directory relative to the module root ('' for the root package),
 * from its import path and the module path in go.mod; null for a package outside the
 * module or an unknown module. Shared by the go-json parser and the go adapter. */
export function packageDirOf(importPath: string, module: string | null): string | null {
  if (module === null) return null;
  if (importPath === module) return '';
  // 47: '/'. No `${module}/` built: this runs for each of a large run's tests (unit_durations).
  return importPath.startsWith(module) && importPath.charCodeAt(module.length) === 47 ? importPath.slice(module.length + 1) : null;
}

const modules = new WeakMap<ProjectFacts, string | null>();

/** The `module` directive of go.mod, or null; read once per project's facts. */
export function modulePath(facts: ProjectFacts): string | null {
  let module = modules.get(facts);
  if (module === undefined) {
    const match = /^\s*module\s+("?)([^\s"]+)\1\s*(?:\/\/.*)?$/m.exec(facts.read('go.mod') ?? '');
    modules.set(facts, (module = match?.[2] ?? null));
  }
  return module;
}
