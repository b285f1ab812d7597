import type { Outcome, RunStatus } from '../../model/results.js';
import { escapeHtml } from './escape.js';

/** Coordinates to a tenth of a pixel: more digits make the page larger, never sharper. */
export const px = (n: number): string => String(Math.round(n * 10) / 10);

/** An inline chart: its own title and description (what a screen reader says of it), a
 * fixed coordinate system scaled by CSS to the column it sits in. `id` is unique in the page. */
export function chart(options: { id: string; width: number; height: number; title: string; desc: string; cls?: string }, body: string): string {
  const [title, desc] = [`${options.id}-title`, `${options.id}-desc`];
  return `<svg class="chart${options.cls === undefined ? '' : ` ${options.cls}`}" xmlns="http://www.w3.org/2000/svg" role="img" width="${options.width}" height="${options.height}" viewBox="0 0 ${options.width} ${options.height}" aria-labelledby="${title} ${desc}">`
    + `<title id="${title}">${escapeHtml(options.title)}</title><desc id="${desc}">${escapeHtml(options.desc)}</desc>${body}</svg>`;
}

export const rect = (x: number, y: number, width: number, height: number, cls: string, title?: string): string =>
  `<rect class="${cls}" x="${px(x)}" y="${px(y)}" width="${px(Math.max(0, width))}" height="${px(Math.max(0, height))}">${title === undefined ? '' : `<title>${escapeHtml(title)}</title>`}</rect>`;

export const text = (x: number, y: number, content: string, cls = 'label', anchor: 'start' | 'middle' | 'end' = 'start'): string =>
  `<text class="${cls}" x="${px(x)}" y="${px(y)}"${anchor === 'start' ? '' : ` text-anchor="${anchor}"`}>${escapeHtml(content)}</text>`;

/** The colour class of a test's outcome; `none` where it did not run. */
export const outcomeClass = (outcome: Outcome | null): string => `o-${outcome === 'error' ? 'failed' : outcome ?? 'none'}`;

/** The colour class of a run's status: passed, failed, flaky never (a run is not flaky),
 * skipped for a run that ran nothing, error for the harness's own failures. */
export function statusClass(status: RunStatus): string {
  if (status === 'passed' || status === 'failed') return `o-${status}`;
  return status === 'no_tests' || status === 'nothing_to_rerun' ? 'o-skipped' : 'o-error';
}

/** `850 ms`, `1.2 s`, `2 min 5 s`: durations as people read them. */
export function duration(ms: number | null): string {
  if (ms === null) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** `2026-12-07 13:08` in UTC, or the run's position where the run did not say when. */
export const when = (startedAt: string | null, index: number): string =>
  startedAt === null ? `run ${index + 1}` : startedAt.replace('T', ' ').slice(0, 16);
