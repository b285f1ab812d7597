import path from 'node:path';
import type { Progress, ProgressSink } from '../model/progress.js';
import type { FailedTest } from '../model/results.js';

/** One live display for the projects of one run, however many run at once: the counts
 * are summed over the projects, and each failure names its file from the invocation
 * directory (`services/api/test/x_test.rb`), so it says which project it is in. */
export class ProjectsProgress {
  private readonly latest: (Progress | null)[];

  constructor(private readonly sink: ProgressSink, private readonly roots: readonly string[], private readonly cwd: string) {
    this.latest = roots.map(() => null);
  }

  /** The sink the project at `index` is told its progress through. Its end is not the
   * display's: that comes with end(), once every project is done. */
  of(index: number): ProgressSink {
    const root = this.roots[index] ?? this.cwd;
    return {
      update: (progress) => {
        this.latest[index] = progress;
        this.sink.update(sumProgress(this.latest));
      },
      failure: (test) => this.sink.failure(fromCwd(test, root, this.cwd)),
      end: () => undefined,
    };
  }

  end(): void {
    this.sink.end();
  }
}

/** The projects' progress together. A total (of tests, or of files) is known only when
 * every project announced its own, and a count of failed or skipped tests only when
 * every project that reported counts them: unknown is never taken for 0. */
export function sumProgress(all: readonly (Progress | null)[]): Progress {
  const reported = all.filter((p): p is Progress => p !== null);
  const sum = (pick: (p: Progress) => number | null): number | null =>
    reported.reduce<number | null>((total, p) => (total === null || pick(p) === null ? null : total + (pick(p) ?? 0)), 0);
  const everyone = reported.length === all.length;
  const files = everyone && reported.every((p) => p.files !== null)
    ? { done: sum((p) => p.files?.done ?? null) ?? 0, total: sum((p) => p.files?.total ?? null) ?? 0 }
    : null;
  return {
    finished: sum((p) => p.finished) ?? 0,
    failed: sum((p) => p.failed),
    skipped: sum((p) => p.skipped),
    total: everyone ? sum((p) => p.total) : null,
    files,
  };
}

/** The failure with its file relative to `cwd`; one without a file is placed in its
 * project's directory. */
function fromCwd(test: FailedTest, root: string, cwd: string): FailedTest {
  const file = path.relative(cwd, test.file === null ? root : path.join(root, test.file)).split(path.sep).join('/') || '.';
  return { ...test, file };
}
