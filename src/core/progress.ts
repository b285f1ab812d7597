import type { Progress, ProgressSink } from '../model/progress.js';
import type { TestResult } from '../model/results.js';
import type { ReportParser } from '../parsers/stream.js';
import { isFailure } from './failures.js';

/** Tells a sink what the report parsers have read: each failure once, as it is read, and
 * the counts on every look. Each look reads only the results added since the last one. */
export class ProgressWatch {
  private seen = 0;
  private failed = 0;
  private skipped = 0;

  constructor(private readonly sink: ProgressSink) {}

  look(parsers: readonly ReportParser[]): void {
    // The first parser that reads results one by one; the others only count.
    const reading = parsers.find((p) => p.live !== undefined)?.live?.();
    if (reading === undefined) {
      this.sink.update({ finished: Math.max(0, ...parsers.map((p) => p.finished)), failed: null, skipped: null, total: null, files: null });
      return;
    }
    const { tests } = reading;
    for (; this.seen < tests.length; this.seen += 1) {
      const test = tests[this.seen] as TestResult;
      if (test.status === 'skipped') this.skipped += 1;
      else if (isFailure(test)) {
        this.failed += 1;
        this.sink.failure(test);
      }
    }
    const progress: Progress = { finished: tests.length, failed: this.failed, skipped: this.skipped, total: reading.total, files: reading.files };
    this.sink.update(progress);
  }
}
