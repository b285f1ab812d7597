/** go's test ids: `<import path> <test name>` for a test (subtests keep go's
 * `TestA/sub` name), or the import path alone for a package-level entry (a build
 * failure, a package that failed outside its tests). Import paths hold no space. */

export const goTestId = (importPath: string, name: string): string => `${importPath} ${name}`;

/** The id's package, and its test's name (null for a package-level entry). */
export function parseGoTestId(id: string): { readonly importPath: string; readonly name: string | null } {
  const space = id.indexOf(' ');
  return space < 0 ? { importPath: id, name: null } : { importPath: id.slice(0, space), name: id.slice(space + 1) };
}
