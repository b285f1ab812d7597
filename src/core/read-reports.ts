import fs from 'fs-extra';
import type { ReportSource } from '../adapters/types.js';
import { loadParser } from '../parsers/index.js';
import type { RunReport } from './report.js';
import type { ParsedReport } from './types.js';

export interface ReadReports {
  /** The best report: the first complete one, else the one with the most results; null if none is usable. */
  readonly report: ParsedReport | null;
  readonly warnings: readonly string[];
  /** Why there is no report, when there is none. */
  readonly error: RunReport['error'];
}

export async function readReports(sources: readonly ReportSource[], root: string): Promise<ReadReports> {
  const parsed: ParsedReport[] = [];
  const problems: string[] = [];
  let unparseable = false;
  for (const source of sources) {
    const text = await fs.readFile(source.path, 'utf8').catch(() => null);
    if (text === null || text.trim() === '') {
      problems.push(`${source.path} is ${text === null ? 'missing' : 'empty'}`);
      continue;
    }
    try {
      const report = (await loadParser(source.parser))(text, { root });
      if (report.complete) return { report, warnings: report.warnings, error: null };
      parsed.push(report);
    } catch (error) {
      unparseable = true;
      problems.push(`${source.path} could not be parsed: ${(error as Error).message}`);
    }
  }
  const best = parsed.sort((a, b) => b.tests.length - a.tests.length)[0];
  if (best && best.tests.length > 0) return { report: best, warnings: best.warnings, error: null };
  const code = unparseable || parsed.length > 0 ? 'REPORT_UNPARSEABLE' : 'REPORT_MISSING';
  const warnings = parsed.flatMap((p) => p.warnings);
  return { report: best ?? null, warnings, error: { code, message: problems.join('; ') || 'the runner wrote an empty report' } };
}
