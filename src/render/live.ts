import type { ChalkInstance } from 'chalk';
import { stripVTControlCharacters } from 'node:util';
import type { Progress, ProgressSink } from '../model/progress.js';
import type { FailedTest } from '../model/results.js';
import { visible } from './visible.js';

/** `redraw`: one line rewritten in place (a terminal); `plain`: lines appended now and
 * then, never a carriage return (TERM=dumb, CI logs). */
export type LiveMode = 'redraw' | 'plain';

/** Redrawn at most this often, whatever the runner does. */
const REDRAW_MS = 100;
/** In plain mode, a progress line at most this often (failures are printed at once). */
export const PLAIN_EVERY_MS = 5000;

/** `12/40 · 1 failed · 0 skipped · 3s`: the total where the runner announced it, else the
 * files done of those announced (jest, vitest), else the count alone. */
export function progressLine(p: Progress, elapsedMs: number, c: ChalkInstance): string {
  const parts = [p.total === null ? `${p.finished} ${p.finished === 1 ? 'test' : 'tests'}` : `${p.finished}/${p.total}`];
  if (p.files !== null) parts.push(`${p.files.done}/${p.files.total} files`);
  if (p.failed !== null) parts.push(p.failed > 0 ? c.red(`${p.failed} failed`) : `${p.failed} failed`);
  if (p.skipped !== null) parts.push(p.skipped > 0 ? c.yellow(`${p.skipped} skipped`) : `${p.skipped} skipped`);
  parts.push(elapsed(elapsedMs));
  return parts.join(' · ');
}

/** `FAIL  Calc › adds  test/calc.test.js:7`: a failure as it happens; its details come with the report. */
export function failureLine(t: FailedTest, c: ChalkInstance): string {
  const where = t.file === null ? '(unknown location)' : t.line === null ? visible(t.file) : `${visible(t.file)}:${t.line}`;
  const word = t.status === 'error' ? c.magenta.bold('ERROR') : c.red.bold('FAIL');
  return `${word}  ${visible(t.name)}  ${c.dim(where)}`;
}

function elapsed(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}

export interface LiveOutput {
  write(text: string): unknown;
  /** The terminal's width, where known: a redrawn line must not wrap. */
  readonly columns?: number;
}

const CLEAR_LINE = '\r\x1b[2K';

/** The live display: progress and failures as the run goes, on stderr. Cheap on every
 * update: a line is built only when it may be written, and written only when it changed. */
export class LiveDisplay implements ProgressSink {
  private readonly started: number;
  /** The progress line on screen (redraw mode), or last printed (plain mode). */
  private shown: string | null = null;
  private shownAt = -Infinity;
  /** Plain mode: the latest progress, printed at the end if it is news. */
  private latest: Progress | null = null;

  constructor(
    private readonly out: LiveOutput,
    private readonly mode: LiveMode,
    private readonly c: ChalkInstance,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  update(progress: Progress): void {
    this.latest = progress;
    const at = this.now();
    if (at - this.shownAt < (this.mode === 'redraw' ? REDRAW_MS : PLAIN_EVERY_MS)) return;
    if (this.mode === 'redraw') this.redraw(progress, at);
    else this.plain(progress, at);
  }

  /** The failure on a line of its own; the progress line is drawn anew by the next update. */
  failure(test: FailedTest): void {
    const line = `${failureLine(test, this.c)}\n`;
    if (this.mode === 'plain') return void this.out.write(line);
    this.out.write(this.shown === null ? line : `${CLEAR_LINE}${line}`);
    this.shown = null;
    this.shownAt = -Infinity;
  }

  /** A redrawn line is cleared for the report; a plain log ends with the last counts. */
  end(): void {
    if (this.mode === 'redraw' && this.shown !== null) this.out.write(CLEAR_LINE);
    if (this.mode === 'plain' && this.latest !== null) this.plain(this.latest, this.now());
    this.shown = null;
    this.shownAt = -Infinity;
    this.latest = null;
  }

  /** A plain line says something new, or nothing: the elapsed time alone is no news, nor
   * a count before the first test finished. */
  private plain(progress: Progress, at: number): void {
    const counts = progressLine(progress, 0, this.c);
    if (counts === this.shown || progress.finished === 0) return;
    this.out.write(`${progressLine(progress, at - this.started, this.c)}\n`);
    this.shown = counts;
    this.shownAt = at;
  }

  private redraw(progress: Progress, at: number): void {
    const line = fit(progressLine(progress, at - this.started, this.c), this.out.columns);
    if (line === this.shown) return;
    this.out.write(`${CLEAR_LINE}${line}`);
    this.shown = line;
    this.shownAt = at;
  }
}

/** A line cut to the terminal's width (less the last column, where a terminal wraps):
 * a wrapped line would not be redrawn in place. A cut line loses its colours. */
function fit(line: string, columns: number | undefined): string {
  // A pseudo-terminal may say 0 columns: no width known.
  if (columns === undefined || columns < 10) return line;
  const plain = stripVTControlCharacters(line);
  return plain.length < columns ? line : `${plain.slice(0, Math.max(0, columns - 2))}…`;
}
