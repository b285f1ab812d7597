/** libtest's text output (`cargo test` without the JSON format), read as the JSON events
 * libtest would have printed, so that the cargo parser treats both forms alike. A block
 * is `running N tests`, one `test NAME ... ok|FAILED|ignored` line per test (in the terse
 * form, `-q`, only `NAME --- FAILED` lines: its passing tests stay unnamed), the
 * `failures:` section with each failed test's captured output, and `test result: …`.
 * Nothing else is needed: current cargo prints its `Running …` headers on stderr, so a
 * file of stdout alone says nothing about which target a block belongs to. */

type Json = Record<string, unknown>;

/** `running 5 tests`, `running 1 test`. */
const RUNNING = /^running (\d+) tests?$/;
/** `test tests::a ... ok`, `… - should panic ... ok`, `… ... ignored, slow`, `… ... ok <0.002s>`. */
const RESULT = /^test (.+?)(?: - should panic)? \.\.\. (ok|FAILED|ignored)(?:, (.*?))?(?: <(\d+(?:\.\d+)?)s>)?$/;
/** The terse form (`cargo test -q`) names failures only: `tests::a --- FAILED`. */
const TERSE_FAILED = /^(\S.*?) --- FAILED$/;
/** `---- tests::a stdout ----`: a failed test's captured output follows. */
const OUTPUT = /^---- (.+) stdout ----$/;
/** `test result: FAILED. 2 passed; 2 failed; 1 ignored; …`: the block's end. */
const SUMMARY = /^test result: (ok|FAILED)\.(?: (\d+) passed; (\d+) failed; (\d+) ignored;)?/;

export class LibtestText {
  /** Inside a block: the failed tests' records, to which their output is added. */
  private failed: Map<string, Json> | null = null;
  /** The failed test whose captured output is being read, and its lines. */
  private output: { readonly name: string; readonly lines: string[] } | null = null;

  /** The JSON records one line stands for ([] when it is libtest's but says nothing,
   * like the `failures:` lists); null when it is not libtest's text. */
  line(line: string): Json[] | null {
    let m = RUNNING.exec(line);
    if (m) {
      this.closeOutput();
      this.failed = new Map();
      return [{ type: 'suite', event: 'started', test_count: Number(m[1]) }];
    }
    if (this.failed === null) return null;
    if ((m = SUMMARY.exec(line))) {
      this.closeOutput();
      this.failed = null;
      const counts = m[4] === undefined ? {} : { passed: Number(m[2]), failed: Number(m[3]), ignored: Number(m[4]) };
      return [{ type: 'suite', event: m[1] === 'ok' ? 'ok' : 'failed', ...counts }];
    }
    if ((m = OUTPUT.exec(line))?.[1]) {
      this.closeOutput();
      this.output = { name: m[1], lines: [] };
      return [];
    }
    if (this.output !== null) {
      if (line !== 'failures:' && line !== 'successes:') {
        this.output.lines.push(line);
        return [];
      }
      this.closeOutput();
    }
    if ((m = RESULT.exec(line))?.[1] && m[2]) return [this.result(m[1], m[2], m[3], m[4])];
    if ((m = TERSE_FAILED.exec(line))?.[1]) return [this.result(m[1], 'FAILED', undefined, undefined)];
    return null;
  }

  private result(name: string, outcome: string, note: string | undefined, seconds: string | undefined): Json {
    const record: Json = { type: 'test', name, event: outcome === 'FAILED' ? 'failed' : outcome };
    if (note !== undefined && note !== '') record['message'] = note;
    if (seconds !== undefined) record['exec_time'] = Number(seconds);
    if (outcome === 'FAILED') this.failed?.set(name, record);
    return record;
  }

  /** The output ends at the next test's header or the list of names after it. */
  private closeOutput(): void {
    if (this.output === null) return;
    const record = this.failed?.get(this.output.name);
    if (record !== undefined) record['stdout'] = this.output.lines.join('\n').trim();
    this.output = null;
  }
}

/** What a `Running` header alone says about its target, for text without cargo's JSON
 * artifact lines: `Running unittests src/main.rs (…/deps/tool-hash)` is the binary
 * `tool`, `Running tests/api.rs (…/deps/api-hash)` the integration test `api`. The
 * package is not named there. */
export function headerTarget(source: string, unit: boolean, executable: string): { kind: 'lib' | 'bin' | 'test' | 'example' | 'bench'; name: string } | null {
  const name = (executable.replace(/\\/g, '/').split('/').at(-1) ?? '').replace(/-[0-9a-f]{16}(?:\.exe)?$/, '');
  if (unit) return { kind: source === 'src/main.rs' || source.startsWith('src/bin/') ? 'bin' : 'lib', name };
  const kind = ({ tests: 'test', examples: 'example', benches: 'bench' } as const)[source.split('/')[0] ?? ''];
  return kind === undefined ? null : { kind, name };
}
