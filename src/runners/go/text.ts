/** Go's plain text inside a `go test -json` report: the output lines of a test (its
 * message and where it failed) and build failures, which Go before 1.21 prints as
 * text (`# pkg` headers and `file.go:12:3: …` compiler errors on stderr, `FAIL pkg
 * [build failed]` on stdout) and 1.21+ wraps in `build-output` events. */
import type { FailedTest, ParseContext, StackFrame } from '../../model/results.js';
import { boundMessage, relativeFile } from '../../parsers/fields.js';
import { messageOf, prefixLocation, type Location } from '../../parsers/go-output.js';
import { projectFrames, type RawFrame } from '../../parsers/frames.js';

export { messageOf, type Location };

/** A goroutine trace frame in a test file: `\t/abs/dir/x_test.go:23 +0x2e`. */
const TEST_FRAME = /^\t(.+_test\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;
const PANIC = /^panic: /m;
const TIMEOUT = /^panic: test timed out after (\S+)/m;

export const panicked = (output: readonly string[]): boolean => PANIC.test(output.join(''));
export const timedOutAfter = (output: readonly string[]): string | null => TIMEOUT.exec(output.join(''))?.[1] ?? null;

/** Where a test failed: for a panic, the first test-file frame of the trace (absolute,
 * made root-relative); otherwise the first `file_test.go:N:` prefix go printed, which
 * t.Helper() already moved to the caller's line. */
export function failureLocation(output: readonly string[], packageDir: string | null, ctx: ParseContext): Location | null {
  const lines = output.join('').split('\n');
  if (panicked(output)) {
    for (const line of lines) {
      const frame = TEST_FRAME.exec(line);
      if (frame?.[1] && frame[2]) return { file: relativeFile(frame[1], ctx.root), line: Number(frame[2]) };
    }
  }
  return prefixLocation(lines, packageDir);
}

/** A goroutine trace's frame: its function's line, then `\t/abs/file.go:23 +0x2e`. */
const TRACE_FILE = /^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?$/;

/** A panic's goroutine trace, frames in the project only (not GOROOT nor the module
 * cache); nothing for a test that did not panic: go prints no stack for t.Error. */
export function panicStack(output: readonly string[], ctx: ParseContext): { stack?: StackFrame[] } {
  if (!panicked(output)) return {};
  const lines = output.join('').split('\n');
  const frames: RawFrame[] = [];
  lines.forEach((line, i) => {
    const at = TRACE_FILE.exec(line);
    if (at?.[1] && at[2]) frames.push({ file: at[1], line: Number(at[2]), function: (lines[i - 1] ?? '').replace(/\(.*$/, '') || null });
  });
  return { stack: projectFrames(frames, ctx.root) };
}

/** `# example.com/m/p [example.com/m/p.test]`: the package whose build the lines below belong to. */
const HEADER = /^# (\S+)(?: \[(\S+?)(?:\.test)?\])?\s*$/;
/** A compiler or vet error; paths are relative to go's working directory (the module root). */
const COMPILER_ERROR = /^(\S[^:]*\.go):(\d+)(?::\d+)?: \S/;
const BUILD_FAILED = /^FAIL\t(\S+) \[(?:build|setup) failed\]\s*$/;

/** The package of a build action's name, `p [p.test]` or `p_test [p.test]`: the one under test. */
export function packageOfBuild(importPath: string): string {
  const match = /^(\S+)(?: \[(\S+?)(?:\.test)?\])?$/.exec(importPath.trim());
  return match?.[2] ?? match?.[1] ?? importPath;
}

interface BuildOutput {
  readonly lines: string[];
  first: Location | null;
}

/** Collects build failures from text, in whichever order stdout and stderr interleave. */
export class BuildFailures {
  private readonly outputs = new Map<string, BuildOutput>();
  /** Packages go said failed to build, in the order it said so. */
  private readonly failed = new Set<string>();
  private current: string | null = null;

  constructor(private readonly ctx: ParseContext) {}

  /** Whether go said the package failed to build, or printed build errors for it. */
  has(pkg: string): boolean {
    return this.failed.has(pkg) || this.outputs.has(pkg);
  }

  markFailed(pkg: string): void {
    this.failed.add(pkg);
  }

  /** Go 1.23+ prints `FAIL pkg [build failed]` as a package's output event. */
  packageOutput(text: string): void {
    const failed = BUILD_FAILED.exec(text.replace(/\n$/, ''));
    if (failed?.[1]) this.failed.add(failed[1]);
  }

  /** Takes one line of go's plain text (`pkg` when a build-output event names it);
   * false when the line is not build output. */
  text(line: string, pkg: string | null = null): boolean {
    const failed = BUILD_FAILED.exec(line);
    if (failed?.[1]) {
      this.failed.add(failed[1]);
      return true;
    }
    const header = HEADER.exec(line);
    if (header?.[1]) {
      this.current = header[2] ?? header[1];
      this.output(this.current);
      return true;
    }
    const owner = pkg ?? this.current;
    if (owner === null || (pkg === null && !COMPILER_ERROR.test(line) && !/^\s/.test(line))) return false;
    const output = this.output(owner);
    output.lines.push(line);
    const error = COMPILER_ERROR.exec(line);
    if (error?.[1] && error[2] && output.first === null) output.first = { file: relativeFile(error[1], this.ctx.root), line: Number(error[2]) };
    return true;
  }

  /** One error entry per package that failed to build; a package failing because a
   * dependency did not compile points at the dependency's first error. `ran` says
   * whether a package reported test results (then its build did not fail after all). */
  entries(ran: (pkg: string) => boolean): FailedTest[] {
    const hasOwn = (pkg: string) => (this.outputs.get(pkg)?.lines.length ?? 0) > 0;
    const failed = [...this.failed].filter((pkg) => !ran(pkg));
    const dependency = [...this.outputs.keys()].find((pkg) => !this.failed.has(pkg) && this.outputs.get(pkg)?.first) ?? null;
    const usesDependency = failed.some((pkg) => !hasOwn(pkg));
    // Errors printed for a package go has not (yet) called failed: the run was cut short.
    const unreported = [...this.outputs.keys()].filter((pkg) =>
      !this.failed.has(pkg) && !ran(pkg) && this.outputs.get(pkg)?.first && !(usesDependency && pkg === dependency));
    return [...failed, ...unreported].map((pkg) => {
      const output = hasOwn(pkg) ? this.outputs.get(pkg) : dependency === null ? undefined : this.outputs.get(dependency);
      const message = output?.lines.join('\n').trim() || `go reported that ${pkg} failed to build`;
      return {
        id: pkg,
        name: `build failed: ${pkg}`,
        file: output?.first?.file ?? null,
        line: output?.first?.line ?? null,
        suite: pkg,
        status: 'error' as const,
        message: boundMessage(message),
        outside: true as const,
      };
    });
  }

  private output(pkg: string): BuildOutput {
    let output = this.outputs.get(pkg);
    if (!output) this.outputs.set(pkg, (output = { lines: [], first: null }));
    return output;
  }
}
