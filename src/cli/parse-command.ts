import fs from 'node:fs';
import { importedReport } from '../core/build-report.js';
import { usageError } from '../model/errors.js';
import type { RunReport } from '../model/report.js';
import type { ProjectRun } from '../core/run-project.js';
import type { ParsedReport, RunStatus } from '../model/results.js';
import { decide } from '../core/verdict.js';
import { readProjectFacts } from '../project/facts.js';
import { loadParser, parserHints } from '../runners/parsers.js';

export const IMPORT_FORMATS = ['junit', 'tap', 'go-json', 'jest-json', 'rspec-json', 'cargo'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Only the head of a file is read to tell its format. */
export const SNIFF_BYTES = 8 * 1024;

export const LOOKED_FOR = 'JUnit XML (<testsuites>, <testsuite> or <testcase>), TAP ("TAP version", "1..N", "ok N"), '
  + 'go test -json lines ("Action" and "Package"), jest --json ("testResults", "numTotalTests"), '
  + 'rspec --format json ("examples", "version"), cargo test (libtest or cargo JSON lines, "running N tests", "Compiling")';

/** `run-tests parse`: a report another tool wrote, read into the same contract. It is
 * evidence run-tests did not see produced (`source: imported`): there is no runner exit
 * to cross-check, so it passes only when complete, with an executed test and no failure. */
export async function importReport(file: string, format: string | null, cwd: string, maxFailures?: number | null): Promise<ProjectRun> {
  const chosen = format === null ? null : knownFormat(format);
  let head: { text: string; cut: boolean };
  try {
    head = readHead(file);
  } catch (error) {
    return failed({ file, cwd, format: chosen, code: 'REPORT_MISSING', message: `${file} could not be read: ${(error as Error).message}` });
  }
  if (head.text.trim() === '' && !head.cut) return failed({ file, cwd, format: chosen, code: 'REPORT_MISSING', message: `${file} is empty` });
  const detected = chosen === null ? sniffFormat(head.text, head.cut) : null;
  if (chosen === null && detected === null) {
    throw usageError(`could not tell the format of ${file} from its first ${SNIFF_BYTES / 1024} KiB; looked for ${LOOKED_FOR}; give --format`);
  }
  const use = chosen ?? (detected as Sniffed).format;
  const reason = chosen === null ? `format detected from the content: ${(detected as Sniffed).evidence}` : `--format ${chosen} given`;
  let parsed: ParsedReport;
  try {
    parsed = await parseFile(file, use, cwd);
  } catch (error) {
    return failed({ file, cwd, format: use, reason, code: 'REPORT_UNPARSEABLE', message: `${file} could not be parsed as ${use}: ${(error as Error).message}` });
  }
  if (parsed.tests.length === 0 && !parsed.complete) {
    return failed({ file, cwd, format: use, reason, code: 'REPORT_UNPARSEABLE', message: `${file} holds no ${use} results`, warnings: parsed.warnings });
  }
  const { status, warnings } = importVerdict(parsed, file);
  return { report: importedReport({ format: use, reason, root: cwd, file, status, tests: parsed.tests, warnings, error: null, packages: parsed.packages, notes: parsed.notes, maxFailures }), tests: parsed.tests };
}

function knownFormat(format: string): ImportFormat {
  if ((IMPORT_FORMATS as readonly string[]).includes(format)) return format as ImportFormat;
  throw usageError(`--format ${JSON.stringify(format)} is not a report format; expected one of ${IMPORT_FORMATS.join(', ')}`);
}

/** The truth rules with the runner's exit taken as the one the report implies (there
 * is none to contradict it). An incomplete report is never `passed`; its warning is
 * about the file rather than a run. */
export function importVerdict(parsed: ParsedReport, file: string): { status: RunStatus; warnings: readonly string[] } {
  const failing = parsed.tests.some((t) => t.status === 'failed' || t.status === 'error');
  const verdict = decide({
    process: { exitCode: failing ? 1 : 0, timedOut: false, interrupted: false },
    report: parsed,
    minTests: 1,
    allowNoTests: false,
    logPath: file,
    logTail: () => '',
  });
  if (parsed.complete) return { status: verdict.status, warnings: [...parsed.warnings, ...verdict.warnings] };
  const n = parsed.tests.length;
  const incomplete = `${file} is not complete: it stops before the end of its run (${n} ${n === 1 ? 'result' : 'results'} read); it cannot show a pass`;
  return { status: verdict.status, warnings: [...parsed.warnings, incomplete] };
}

/** The first SNIFF_BYTES of the file, and whether there is more. */
function readHead(file: string): { text: string; cut: boolean } {
  const fd = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES + 1);
    const read = fs.readSync(fd, buffer, 0, SNIFF_BYTES + 1, 0);
    return { text: buffer.subarray(0, Math.min(read, SNIFF_BYTES)).toString('utf8'), cut: read > SNIFF_BYTES };
  } finally {
    fs.closeSync(fd);
  }
}

/** Streams the file through the format's parser, a chunk at a time. */
async function parseFile(file: string, format: ImportFormat, cwd: string): Promise<ParsedReport> {
  const factory = await loadParser(format);
  const parser = factory({ root: cwd, hints: parserHints(format, readProjectFacts(cwd)) });
  const stream = fs.createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  for await (const chunk of stream) parser.push(chunk as string);
  return parser.end();
}

interface Failure {
  readonly file: string;
  readonly cwd: string;
  readonly format: ImportFormat | null;
  readonly reason?: string;
  readonly code: 'REPORT_MISSING' | 'REPORT_UNPARSEABLE';
  readonly message: string;
  readonly warnings?: readonly string[];
}

function failed(f: Failure): ProjectRun {
  const report: RunReport = importedReport({
    format: f.format,
    reason: f.reason ?? (f.format === null ? 'no format: the file gave nothing to detect it from' : `--format ${f.format} given`),
    root: f.cwd,
    file: f.file,
    status: 'error',
    tests: null,
    warnings: f.warnings ?? [],
    error: { code: f.code, message: f.message },
  });
  return { report, tests: [] };
}

export interface Sniffed {
  readonly format: ImportFormat;
  /** What in the content gave it away, for the report's reason. */
  readonly evidence: string;
}

/** `cargo test --message-format json` prints these before libtest's own events. */
const CARGO_MESSAGES = new Set(['compiler-artifact', 'compiler-message', 'build-script-executed', 'build-finished']);

const sniffed = (format: ImportFormat, evidence: string): Sniffed => ({ format, evidence });

/** Tells a report's format from the head of the file (`cut`: the file goes on after
 * it); null when nothing matches. Line
 * formats are recognized on any complete line of the head, since tools may print other
 * lines first (go before 1.24 printed build errors as text). */
export function sniffFormat(head: string, cut = false): Sniffed | null {
  const text = head.replace(/^\uFEFF/, '');
  const start = text.trimStart();
  if (start.startsWith('<')) {
    const element = /<(testsuites|testsuite|testcase)[\s/>]/.exec(text);
    return element ? sniffed('junit', `XML with a <${element[1]}> element`) : null;
  }
  // When the head is not the whole file its last line may be cut; only whole lines count.
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const whole = cut ? lines.slice(0, -1) : lines;
  for (const line of whole) {
    const record = jsonObject(line);
    if (record === null) continue;
    if ('Action' in record && 'Package' in record) return sniffed('go-json', 'JSON lines with "Action" and "Package" (go test -json)');
    if (typeof record.type === 'string' && ['suite', 'test', 'bench'].includes(record.type) && 'event' in record) {
      return sniffed('cargo', 'libtest JSON lines with "type" and "event" (cargo test)');
    }
    if (typeof record.reason === 'string' && CARGO_MESSAGES.has(record.reason)) {
      return sniffed('cargo', `cargo JSON messages ("reason": ${JSON.stringify(record.reason)})`);
    }
  }
  if (start.startsWith('{')) {
    if (/"(?:numTotalTests|testResults)"\s*:/.test(text)) return sniffed('jest-json', 'a JSON object with "numTotalTests"/"testResults" (jest --json)');
    if (/"examples"\s*:\s*\[/.test(text) || /^\{\s*"version"\s*:\s*"[\d.]+[^"]*"\s*,\s*"(?:messages|seed|examples)"/.test(start)) {
      return sniffed('rspec-json', 'a JSON object with "version" and "examples" (rspec --format json)');
    }
  }
  const tap = whole.find((l) => /^TAP version \d+\s*$/.test(l) || /^1\.\.\d+\s*(?:#.*)?$/.test(l) || /^\s*(?:not )?ok \d+\b/.test(l));
  if (tap !== undefined) return sniffed('tap', `TAP lines (${JSON.stringify(tap.trim())})`);
  const cargo = whole.find((l) => /^running \d+ tests?$/.test(l) || /^test result: (?:ok|FAILED)\./.test(l) || /^\s+Compiling \S+ v\d+\.\d+/.test(l));
  if (cargo !== undefined) return sniffed('cargo', `cargo test output (${JSON.stringify(cargo)})`);
  return null;
}

function jsonObject(line: string): Record<string, unknown> | null {
  if (!line.trimStart().startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
