import type { TargetKind } from './report.js';

/** A target as nextest names a test binary: `mixed` (its lib), `mixed::api` (an
 * integration test), `mixed::bin/tool`; the doc tests of its lib are `mixed::doc/mixed`.
 * The package is left out when cargo's output did not name it (text without artifacts). */
export function targetSuite(pkg: string, kind: TargetKind, name: string): string {
  const crate = pkg === '' ? '' : `${pkg}::`;
  if (kind === 'lib') return pkg === '' ? name : pkg;
  return `${crate}${kind === 'test' ? '' : `${kind}/`}${name}`;
}
