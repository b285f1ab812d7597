/** Go's test output lines, read by the go test -json parser and by JUnit that
 * go-junit-report and gotestsum made of them: where t.Error/t.Fatal/t.Log was called. */

export interface Location {
  readonly file: string;
  readonly line: number;
}

/** `=== RUN   TestX`, `--- FAIL: TestX (0.00s)` and the like: go's framing, not the test's words. */
const FRAMING = /^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)\b|--- (?:PASS|FAIL|SKIP|BENCH): )/;

/** The `file_test.go:12: ` prefix of t.Error/t.Fatal/t.Log/t.Skip lines (the base name, in the package's directory). */
const OUTPUT_PREFIX = /^\s+([^\s/:][^\s/:]*\.go):(\d+): /;

/** The first prefixed line's place, in the package's directory (root-relative, '' for the root). */
export function prefixLocation(lines: readonly string[], packageDir: string | null): Location | null {
  if (packageDir === null) return null;
  for (const line of lines) {
    const prefix = OUTPUT_PREFIX.exec(line);
    if (prefix?.[1] && prefix[2]) return { file: packageDir === '' ? prefix[1] : `${packageDir}/${prefix[1]}`, line: Number(prefix[2]) };
  }
  return null;
}

/** The test's output as one text, without go's framing lines, dedented and trimmed. */
export function messageOf(output: readonly string[]): string {
  const lines = output.join('').split('\n').filter((l) => !FRAMING.test(l)).map((l) => l.replace(/\s+$/, ''));
  const indents = lines.filter((l) => l !== '').map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const indent = indents.length === 0 ? 0 : Math.min(...indents);
  return lines.map((l) => l.slice(indent)).join('\n').trim();
}
