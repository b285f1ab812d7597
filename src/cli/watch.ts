import chokidar from 'chokidar';
import path from 'node:path';
import { everyProject, selectProjects } from '../detect/roots.js';
import { EXIT } from '../model/exit-codes.js';
import { Interrupts, type RunRequest } from '../model/request.js';
import type { ChangedFile } from '../model/request.js';
import type { ProgressSink } from '../model/progress.js';
import type { RunReport } from '../model/report.js';
import { savedChange } from '../core/change/git-change.js';
import { runTests } from '../core/run.js';
import { operandFiles } from '../core/locations.js';

/** Saves closer together than this are one change: an editor's save-all, a formatter. */
export const DEBOUNCE_MS = 200;
/** What a watch never looks into: run-tests' own records, installs, git, build outputs. */
const IGNORED = new Set(['.run-tests', 'node_modules', '.git', 'target', '__pycache__']);

export interface WatchIo {
  /** A new live display for each run (the terminal's), or null. */
  readonly live: () => Promise<ProgressSink | null>;
  readonly render: (report: RunReport) => string;
  readonly out: NodeJS.WritableStream;
  /** Keys or lines typed: `q` ends the watch. */
  readonly input: NodeJS.ReadableStream;
}

/** `run-tests --watch`: the run as asked, then, each time files are saved, a run of what
 * the saved files need (the plan of that change, as --changed makes it). `q` ends it after
 * the run in progress; Ctrl-C (SIGINT, SIGTERM) interrupts that run and ends it. Returns
 * the exit code: the last run's, or 130 when interrupted. Nothing it started outlives it. */
export async function watchRuns(request: RunRequest, io: WatchIo, interrupts: Interrupts): Promise<number> {
  const roots = (request.allProjects === true ? everyProject(request.cwd) : selectProjects(request.cwd, operandFiles(request))).map((s) => s.root);
  const saved = new Map<string, ChangedFile['change']>();
  let settled = false;
  let quit = false;
  let wake: (() => void) | null = null;
  let timer: NodeJS.Timeout | null = null;
  const nudge = () => {
    const resume = wake;
    wake = null;
    resume?.();
  };
  const onSave = (kind: ChangedFile['change']) => (file: string) => {
    const before = saved.get(file);
    saved.set(file, before === 'added' && kind === 'modified' ? 'added' : before === 'deleted' && kind === 'added' ? 'modified' : kind);
    settled = false;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => { settled = true; nudge(); }, DEBOUNCE_MS);
  };
  const watcher = chokidar.watch([...new Set(roots)], {
    ignoreInitial: true,
    ignored: (file: string) => file.split(path.sep).some((part) => IGNORED.has(part)),
  });
  watcher.on('add', onSave('added')).on('change', onSave('modified')).on('unlink', onSave('deleted'));
  const onInput = (chunk: Buffer | string) => {
    const text = chunk.toString();
    if (text.includes('\u0003')) interrupts.raise('SIGINT'); // Ctrl-C on a terminal in raw mode
    if (/q/i.test(text)) {
      quit = true;
      nudge();
    }
  };
  io.input.on('data', onInput);
  const stop = interrupts.on(() => nudge());
  const ended = () => interrupts.signal !== null || quit;
  try {
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
    let code = await runOnce(request, io, interrupts);
    while (!ended()) {
      io.out.write(`\nwatching ${[...new Set(roots)].map((r) => path.relative(request.cwd, r) || '.').join(', ')} for saves; q to quit\n`);
      while (!ended() && !(settled && saved.size > 0)) await new Promise<void>((resolve) => { wake = resolve; });
      if (ended()) break;
      settled = false;
      const change = await savedChange(request.cwd, new Map(saved));
      saved.clear();
      const shown = change.files.map((f) => path.relative(request.cwd, path.join(change.top, f.path)).split(path.sep).join('/'));
      io.out.write(`\nsaved: ${shown.join(', ')}\n`);
      // Failures first: the recorded failures' units run too, before the plan's.
      code = await runOnce({ ...request, changed: null, change, failuresFirst: true }, io, interrupts);
    }
    return interrupts.signal === null ? code : EXIT.INTERRUPTED;
  } finally {
    stop();
    if (timer) clearTimeout(timer);
    io.input.off('data', onInput);
    await watcher.close();
  }
}

async function runOnce(request: RunRequest, io: WatchIo, interrupts: Interrupts): Promise<number> {
  const { report } = await runTests({ ...request, liveCount: await io.live() }, interrupts);
  io.out.write(io.render(report));
  return report.exit_code;
}
