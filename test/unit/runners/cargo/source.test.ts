import { describe, expect, it } from '@jest/globals';
import { codeOnly, libraryRoot, testDefinition } from '../../../../src/runners/cargo/source.js';
import { factsFromFiles } from '../../../../src/project/facts.js';

const LIB = [
  'mod util;', //                                          1
  'mod nested;', //                                        2
  '/* a block /* nested */ comment: fn adds( */', //       3
  'const S: &str = "fn adds( } {";', //                    4
  'const R: &str = r#"mod tests { fn adds( "#;', //        5
  "const C: char = '{';", //                               6
  "fn first<'a>(s: &'a str) -> &'a str { s }", //          7
  '#[cfg(test)]', //                                       8
  'mod tests {', //                                        9
  '    fn helper() { fn adds() {} }', //                  10
  '    #[test]', //                                       11
  '    fn adds() -> Result<(), String> {', //             12
  '        Err("no".into())', //                          13
  '    }', //                                             14
  '    mod deeper {', //                                  15
  '        #[test] fn adds() {}', //                      16
  '    }', //                                             17
  '}', //                                                 18
  'tests_from_a_macro!(fn made() {});', //                19
  '#[cfg(unix)] #[test] fn twice() {}', //                20
  '#[cfg(not(unix))] #[test] fn twice() {}', //           21
  '#[path = "elsewhere.rs"]', //                          22
  'mod moved;', //                                        23
].join('\n');

const SOURCES = {
  'Cargo.toml': '[package]\nname = "m"\n',
  'src/lib.rs': LIB,
  'src/util.rs': '#[cfg(test)]\nmod tests;\n',
  'src/util/tests.rs': 'use super::*;\n\n#[test]\nfn in_a_file() {}\n',
  'src/nested/mod.rs': 'mod inner {\n    mod leaf;\n}\n',
  'src/nested/inner/leaf.rs': '\n#[test]\nfn deep() {}\n',
  'src/elsewhere.rs': '#[test]\nfn moved_test() {}\n',
  'src/moved.rs': '#[test]\nfn moved_test() {}\n',
  'tests/api.rs': 'mod common;\n#[test]\nfn api() {}\n',
  'tests/common/mod.rs': '#[test]\nfn shared() {}\n',
};
const facts = factsFromFiles('/p', SOURCES);
const find = (root: string, test: string) => testDefinition(facts, root, test);

describe('testDefinition', () => {
  it('follows the module path through inline modules and module files, as rustc does', () => {
    expect(find('src/lib.rs', 'tests::adds')).toEqual({ file: 'src/lib.rs', line: 12 });
    expect(find('src/lib.rs', 'tests::deeper::adds')).toEqual({ file: 'src/lib.rs', line: 16 });
    expect(find('src/lib.rs', 'util::tests::in_a_file')).toEqual({ file: 'src/util/tests.rs', line: 4 });
    expect(find('src/lib.rs', 'nested::inner::leaf::deep')).toEqual({ file: 'src/nested/inner/leaf.rs', line: 3 });
    expect(find('tests/api.rs', 'api')).toEqual({ file: 'tests/api.rs', line: 3 });
    expect(find('tests/api.rs', 'common::shared')).toEqual({ file: 'tests/common/mod.rs', line: 2 });
  });

  it('never guesses: a missing step, two definitions, a #[path] module or a macro argument is no place', () => {
    expect(find('src/lib.rs', 'adds')).toBeNull(); // only in comments and strings at the top level
    expect(find('src/lib.rs', 'tests::helper::adds')).toBeNull(); // a function is not a module
    expect(find('src/lib.rs', 'twice')).toBeNull(); // #[cfg] alternatives
    expect(find('src/lib.rs', 'moved::moved_test')).toBeNull();
    expect(find('src/lib.rs', 'made')).toBeNull();
    expect(find('src/lib.rs', 'gone::adds')).toBeNull();
    expect(find('src/missing.rs', 'tests::adds')).toBeNull();
    const both = factsFromFiles('/p', { 'src/lib.rs': 'mod a;', 'src/a.rs': 'fn t() {}', 'src/a/mod.rs': 'fn t() {}' });
    expect(testDefinition(both, 'src/lib.rs', 'a::t')).toBeNull();
  });

  it('blanks comments, strings and characters but keeps every offset and lifetime', () => {
    const text = "let s = \"a{\\\"}\"; // {\nlet c = '\\''; let l: &'static str = b\"}\"; /* } */ 'x'";
    const code = codeOnly(text);
    expect(code).toHaveLength(text.length);
    expect(code.split('\n')).toHaveLength(2);
    expect(code.replace(/ +/g, ' ')).toBe("let s = ; \nlet c = ; let l: &'static str = b ; ");
  });
});

describe('libraryRoot', () => {
  it('is src/lib.rs or [lib] path, in the root package or the workspace member of that name', () => {
    expect(libraryRoot(facts, 'm')).toBe('src/lib.rs');
    const workspace = factsFromFiles('/w', {
      'Cargo.toml': '[workspace]\nmembers = [\n  "tools/gen", # a comment\n  "crates/*",\n]\nexclude = ["crates/old"]\n',
      'tools/gen/Cargo.toml': '[package]\nname = "gen"\n\n[lib]\npath = "lib.rs"\n',
      'crates/alpha/Cargo.toml': '[package]\nname = "alpha"\nversion = "0.1.0"\n',
      'crates/old/Cargo.toml': '[package]\nname = "old"\n',
      'crates/README.md': '',
    });
    expect(libraryRoot(workspace, 'gen')).toBe('tools/gen/lib.rs');
    expect(libraryRoot(workspace, 'alpha')).toBe('crates/alpha/src/lib.rs');
    expect(libraryRoot(workspace, 'old')).toBeNull(); // excluded
    expect(libraryRoot(workspace, 'nobody')).toBeNull();
  });

  it('expands member globs as cargo does, not only `dir/*`: `**`, `*-web`, `?` and `[…]`', () => {
    const workspace = factsFromFiles('/w', {
      'Cargo.toml': '[workspace]\nmembers = ["apps/*-web", "libs/**", "tools/v?", "ext/[ab]x"]\nexclude = ["libs/old"]\n',
      'apps/shop-web/Cargo.toml': '[package]\nname = "shop"\n',
      'apps/admin-cli/Cargo.toml': '[package]\nname = "admin"\n',
      'libs/core/Cargo.toml': '[package]\nname = "core"\n',
      'libs/net/http/Cargo.toml': '[package]\nname = "http"\n',
      'libs/old/Cargo.toml': '[package]\nname = "old"\n',
      'tools/v2/Cargo.toml': '[package]\nname = "v2"\n',
      'ext/ax/Cargo.toml': '[package]\nname = "ax"\n',
      'ext/cx/Cargo.toml': '[package]\nname = "cx"\n',
    });
    const roots = ['shop', 'admin', 'core', 'http', 'old', 'v2', 'ax', 'cx'].map((name) => [name, libraryRoot(workspace, name)]);
    expect(roots).toEqual([
      ['shop', 'apps/shop-web/src/lib.rs'], ['admin', null], ['core', 'libs/core/src/lib.rs'], ['http', 'libs/net/http/src/lib.rs'],
      ['old', null], ['v2', 'tools/v2/src/lib.rs'], ['ax', 'ext/ax/src/lib.rs'], ['cx', null],
    ]);
  });

  it('reads the manifests as TOML: dotted keys, spaced headers, inline tables and literal strings', () => {
    const workspace = factsFromFiles('/w', {
      'Cargo.toml': "workspace.members = ['tools/gen', \"crates/alpha\"]\nworkspace.exclude = []\n",
      'tools/gen/Cargo.toml': '[ package ]\nname = "gen"\n\n[ lib ]\npath = "lib.rs"\n',
      'crates/alpha/Cargo.toml': 'package = { name = "alpha", version = "0.1.0" }\nlib.path = \'src/alpha.rs\'\n',
    });
    expect(libraryRoot(workspace, 'gen')).toBe('tools/gen/lib.rs');
    expect(libraryRoot(workspace, 'alpha')).toBe('crates/alpha/src/alpha.rs');
  });
});
