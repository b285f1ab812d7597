import { isatty } from 'node:tty';
import type { ProgressSink } from '../model/progress.js';

/** The live display, when one is wanted, on stderr: redrawn in place on a terminal;
 * plain lines on a dumb terminal and in CI, whose logs are read as the job runs; none
 * otherwise (piped output is for programs), and never with --json or --stream. */
export async function liveDisplay(options: { json?: boolean; stream?: boolean }, env: NodeJS.ProcessEnv): Promise<ProgressSink | null> {
  if (options.json === true || options.stream === true) return null;
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  // isatty, not process.stderr.isTTY: a run that shows nothing never builds the stream.
  const terminal = isatty(2);
  if (!terminal && !ci) return null;
  const mode = terminal && !ci && env.TERM !== 'dumb' ? 'redraw' : 'plain';
  const [{ LiveDisplay }, { chalkFor }] = await Promise.all([import('../render/live.js'), import('../render/colors.js')]);
  return new LiveDisplay(process.stderr, mode, chalkFor(env));
}
