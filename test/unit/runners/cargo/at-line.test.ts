import { describe, expect, it } from '@jest/globals';
import { cargoTestsAt } from '../../../../src/runners/cargo/at-line.js';

const SOURCE = `pub fn add(a: i32, b: i32) -> i32 { a + b }

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds() {
        let s = "fn not_a_test() {";
        assert_eq!(add(1, 1), 2);
    }

    mod deeper {
        #[tokio::test]
        async fn waits() {}
    }

    fn helper() {}
}
`;

describe('cargoTestsAt', () => {
  const names = (file: string, line: number) => cargoTestsAt(file, line, SOURCE, 'mixed').map((t) => [t.id, t.test_name]);

  it('is the #[test] fn at the line, by its libtest path from the file and its mods, in its target', () => {
    expect(names('src/lib.rs', 10)).toEqual([['mixed --lib tests::adds', 'unit: tests::adds']]);
    expect(names('src/parse/mod.rs', 15)).toEqual([['mixed --lib parse::tests::deeper::waits', 'unit: parse::tests::deeper::waits']]);
    expect(names('tests/api.rs', 8)).toEqual([['mixed --test api tests::adds', 'integration tests/api.rs: tests::adds']]);
    expect(names('tests/api/util.rs', 8)).toEqual([['mixed --test api util::tests::adds', 'integration tests/api/main.rs: util::tests::adds']]);
  });

  it('a mod line is every test in it; a helper, a line outside, a binary are refused', () => {
    expect(names('src/lib.rs', 5).map(([id]) => id)).toEqual(['mixed --lib tests::adds', 'mixed --lib tests::deeper::waits']);
    expect(() => names('src/lib.rs', 18)).toThrow('no #[test] fn is defined at src/lib.rs:18');
    expect(() => names('src/lib.rs', 1)).toThrow('no #[test] fn is defined at src/lib.rs:1');
    expect(() => names('src/main.rs', 8)).toThrow('src/main.rs is no library or integration test source');
  });
});
