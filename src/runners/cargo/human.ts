/** cargo test's own output, from what it printed for run-tests: cargo's JSON messages
 * are left out (its `Compiling`/`Running` lines and rendered errors come on stderr as
 * text), and libtest's JSON events become the lines libtest prints without them:
 * `running 2 tests`, `test a ... FAILED`, the failures with their output, `test result: …`. */

type Json = Record<string, unknown>;

const plural = (n: unknown, word: string): string => `${String(n)} ${word}${n === 1 ? '' : 's'}`;

export function cargoHumanOutput(): (line: string) => string {
  let failed: { name: string; stdout: string }[] = [];
  const event = (e: Json): string => {
    const name = String(e['name'] ?? '');
    if (e['type'] === 'suite' && e['event'] === 'started') {
      failed = [];
      return `\nrunning ${plural(e['test_count'], 'test')}\n`;
    }
    if (e['type'] === 'suite') return suiteEnd(e, failed);
    if (e['type'] !== 'test') return '';
    switch (e['event']) {
      case 'ok': return `test ${name} ... ok\n`;
      case 'ignored': return `test ${name} ... ignored${typeof e['message'] === 'string' ? `, ${e['message']}` : ''}\n`;
      case 'timeout': return `test ${name} has been running for over 60 seconds\n`;
      case 'failed':
        failed.push({ name, stdout: typeof e['stdout'] === 'string' ? e['stdout'] : '' });
        return `test ${name} ... FAILED\n`;
      default: return '';
    }
  };
  return (line) => {
    const text = line.trimStart();
    if (!text.startsWith('{')) return `${line}\n`;
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null) return `${line}\n`;
      const e = parsed as Json;
      // cargo's own messages: only a diagnostic it did not render on stderr is shown.
      if ('reason' in e) return typeof (e['message'] as Json | undefined)?.['rendered'] === 'string' ? String((e['message'] as Json)['rendered']) : '';
      return event(e);
    } catch {
      return `${line}\n`;
    }
  };
}

/** libtest's end of a test binary's run: the failures' output, their names, the counts. */
function suiteEnd(e: Json, failed: readonly { name: string; stdout: string }[]): string {
  const lines: string[] = [];
  if (failed.length > 0) {
    lines.push('', 'failures:', '');
    for (const f of failed.filter((t) => t.stdout !== '')) lines.push(`---- ${f.name} stdout ----`, f.stdout.replace(/\n$/, ''), '');
    lines.push('failures:', ...failed.map((f) => `    ${f.name}`), '');
  }
  const time = typeof e['exec_time'] === 'number' ? `; finished in ${e['exec_time'].toFixed(2)}s` : '';
  const counts = `${String(e['passed'])} passed; ${String(e['failed'])} failed; ${String(e['ignored'])} ignored; ${String(e['measured'])} measured; ${String(e['filtered_out'])} filtered out`;
  lines.push(`test result: ${e['event'] === 'ok' ? 'ok' : 'FAILED'}. ${counts}${time}`, '', '');
  return lines.join('\n');
}
