import type { TargetKind } from './report.js';

/** A target as nextest names a test binary: `mixed` (its lib), `mixed::api` (an
 * integration test), `mixed::bin/tool`; the doc tests of its lib are `mixed::doc/mixed`.
 * The package is left out when cargo's output did not name it (text without artifacts). */
export function targetSuite(pkg: string, kind: TargetKind, name: string): string {
  const crate = pkg === '' ? '' : `${pkg}::`;
  if (kind === 'lib') return pkg === '' ? name : pkg;
  return `${crate}${kind === 'test' ? '' : `${kind}/`}${name}`;
}

/** The package and target selector of a suite targetSuite named (`mixed::api` →
 * `mixed`, `--test api`), for a test known by its suite alone (read back from JUnit);
 * null for a suite without its package. */
export function suiteTarget(suite: string): { pkg: string; selector: string[] } | null {
  const m = /^([^:\s]+)(?:::(?:(bin|example|bench|doc)\/)?(\S+))?$/.exec(suite);
  if (!m?.[1]) return null;
  const [, pkg, kind, name] = m;
  if (name === undefined) return { pkg, selector: ['--lib'] };
  return { pkg, selector: kind === 'doc' ? ['--doc'] : [`--${kind ?? 'test'}`, name] };
}
