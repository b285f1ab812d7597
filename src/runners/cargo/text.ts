/** The plain text inside a cargo report: cargo's own stderr lines (which test binary
 * runs next, which target failed, compiler errors as cargo renders them) and the panic
 * text that libtest puts in a failed test's `stdout`. */

export interface Location {
  readonly file: string;
  readonly line: number;
}

/** `     Running unittests src/lib.rs (target/debug/deps/x-0123abcd)`, `     Running tests/api.rs (…)`. */
const RUNNING = /^\s*Running (unittests )?(\S.*?) \((.+)\)\s*$/;
/** `   Doc-tests cargo_mixed`: the doc tests of a library crate. */
const DOC_TESTS = /^\s*Doc-tests (\S+)\s*$/;
/** `error: test failed, to rerun pass `-p beta --test edge``; doctests say `doctest failed`. */
const TARGET_FAILED = /^error: (?:test|doctest) failed, to rerun pass `([^`]*)`/;
/** `  process didn't exit successfully: `…` (signal: 11, SIGSEGV: invalid memory reference)`. */
const EXIT_REASON = /^\s*process didn't exit successfully: .*\((?:exit status|signal)[^)]*\)\)?\s*$/;
/** `error: could not compile `name` (lib test) due to 1 previous error`. */
const COULD_NOT_COMPILE = /^error: could not compile `([^`]+)`(?: \(([^)]*)\))?/;
/** The start of a rustc diagnostic as cargo renders it: `error[E0425]: …` or `error: …`. */
const DIAGNOSTIC = /^(error|warning)(?:\[\w+\])?: /;
/** `  --> src/lib.rs:11:31`, relative to rustc's working directory (the workspace root). */
const ARROW = /^\s*--> (.+?):(\d+):(\d+)\s*$/;
/** The lines of a rendered diagnostic after its first: `  --> f.rs:1:2`, `   |`,
 * `11 |     code`, `   = note: …`, `  ::: …`, `...`, `help: …`. cargo's status lines
 * (`    Finished …`, `     Running …`) are none of these. */
const CONTINUATION = /^(?:\s*(?:-->|:::|\||=|\.\.\.)|\s*\d+\s*[|:]|(?:help|note|suggestion): )/;
/** cargo's own `error:` lines, which are not compiler diagnostics. */
const CARGO_OWN = /^error: (?:test failed|doctest failed|could not compile|\d+ targets? failed|build failed)/;

export type StderrLine =
  | { readonly kind: 'running'; readonly source: string; readonly executable: string; readonly unit: boolean }
  | { readonly kind: 'doc-tests'; readonly crate: string }
  | { readonly kind: 'target-failed'; readonly selector: string }
  | { readonly kind: 'exit-reason'; readonly text: string }
  | { readonly kind: 'could-not-compile'; readonly pkg: string; readonly what: string | null }
  | { readonly kind: 'other' };

export function classify(line: string): StderrLine {
  let m = RUNNING.exec(line);
  if (m?.[2] && m[3]) return { kind: 'running', source: m[2], executable: m[3], unit: m[1] !== undefined };
  if ((m = DOC_TESTS.exec(line))?.[1]) return { kind: 'doc-tests', crate: m[1] };
  if ((m = TARGET_FAILED.exec(line))) return { kind: 'target-failed', selector: m[1] ?? '' };
  if (EXIT_REASON.test(line)) return { kind: 'exit-reason', text: line.trim() };
  if ((m = COULD_NOT_COMPILE.exec(line))?.[1]) return { kind: 'could-not-compile', pkg: m[1], what: m[2] ?? null };
  return { kind: 'other' };
}

export interface Diagnostic {
  readonly lines: string[];
  at: Location | null;
}

/** Collects rustc's error diagnostics (cargo renders each one whole) until cargo says
 * which package they stopped. Warnings are read past, never kept. */
export class Diagnostics {
  private current: { level: string; diagnostic: Diagnostic } | null = null;
  private pending: Diagnostic[] = [];

  /** Takes one stderr line; false when it is not part of a diagnostic. */
  text(line: string): boolean {
    const start = DIAGNOSTIC.exec(line);
    if (start?.[1] && !CARGO_OWN.test(line)) {
      this.close();
      this.current = { level: start[1], diagnostic: { lines: [line], at: null } };
      return true;
    }
    if (this.current === null) return false;
    if (!CONTINUATION.test(line)) {
      this.close();
      return false;
    }
    const { diagnostic } = this.current;
    diagnostic.lines.push(line);
    const arrow = ARROW.exec(line);
    if (arrow?.[1] && arrow[2] && diagnostic.at === null) diagnostic.at = { file: arrow[1], line: Number(arrow[2]) };
    return true;
  }

  /** The errors seen since the last call: they belong to the package cargo names now. */
  take(): Diagnostic[] {
    this.close();
    const taken = this.pending;
    this.pending = [];
    return taken;
  }

  private close(): void {
    if (this.current?.level === 'error') this.pending.push(this.current.diagnostic);
    this.current = null;
  }
}

export interface Panic {
  readonly message: string;
  readonly at: Location | null;
}

/** Rust ≥ 1.73: `thread 'name' (123) panicked at src/lib.rs:16:9:` then the message. */
const PANIC_NEW = /panicked at (.+?):(\d+):(\d+):\s*$/;
/** Older: `thread 'name' panicked at 'message', src/lib.rs:16:9` (the message may span lines). */
const PANIC_OLD = /panicked at '([\s\S]*?)', ([^\s']+?):(\d+):(\d+)\s*$/m;
/** Where the panic message ends: the backtrace or the hint about it. */
const MESSAGE_END = /^(?:stack backtrace:|note: run with `RUST_BACKTRACE|note: Some details are omitted)/;

/** The first panic in a test's captured output: its message and where it was reported. */
export function panicOf(output: string): Panic | null {
  const lines = output.split('\n');
  const index = lines.findIndex((l) => PANIC_NEW.test(l));
  if (index >= 0) {
    const m = PANIC_NEW.exec(lines[index] ?? '');
    const rest = lines.slice(index + 1);
    const end = rest.findIndex((l) => MESSAGE_END.test(l));
    const message = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
    return { message, at: m?.[1] && m[2] ? { file: m[1], line: Number(m[2]) } : null };
  }
  const old = PANIC_OLD.exec(output);
  if (old?.[2] && old[3]) return { message: (old[1] ?? '').trim(), at: { file: old[2], line: Number(old[3]) } };
  return null;
}

/** `test did not panic as expected at src/lib.rs:14:8` (libtest's message for a
 * #[should_panic] test that returned) → its file and line. */
export function noteLocation(note: string | null): Location | null {
  const m = note === null ? null : / at ([^\s:]+\.rs):(\d+):\d+$/.exec(note);
  return m?.[1] && m[2] ? { file: m[1], line: Number(m[2]) } : null;
}

/** `src/lib.rs - double (line 12)` → its file and line; rustdoc's names say where the example starts. */
export function docTestLocation(name: string): Location | null {
  const m = /^(\S.*?) - .*\(line (\d+)\)(?: - .*)?$/.exec(name);
  return m?.[1] && m[2] ? { file: m[1], line: Number(m[2]) } : null;
}
