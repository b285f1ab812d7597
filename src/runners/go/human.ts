/** go test's own output, from the `go test -json` events it printed for run-tests: the
 * Output of each event (the lines `go test -v` prints: `=== RUN`, `--- FAIL: TestX`,
 * `ok  pkg 0.01s`). Lines that are no event (build errors on stderr) stay as they are. */
export function goHumanOutput(): (line: string) => string {
  return (line) => {
    if (!line.startsWith('{')) return `${line}\n`;
    try {
      const event = JSON.parse(line) as { Output?: unknown };
      return typeof event.Output === 'string' ? event.Output : '';
    } catch {
      return `${line}\n`;
    }
  };
}
