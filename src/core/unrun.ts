import path from 'node:path';
import type { ProjectSelection } from '../detect/roots.js';
import { subprojects, type Subproject } from '../detect/subprojects.js';
import { shellQuote } from './quote.js';

/** The projects below a whole project that ran (a monorepo root) whose runner is another
 * than the one that ran, which therefore ran none of their tests: named, with the
 * command that runs them. `ran`: the runner's id, null when none was detected. */
export function unrunWarnings(selection: { readonly root: string; readonly subprojects: readonly Subproject[] }, cwd: string, ran: string | null): string[] {
  const others = selection.subprojects.filter((s) => s.runner !== ran);
  if (others.length === 0) return [];
  const relative = (dir: string): string => path.relative(cwd, dir).split(path.sep).join('/') || '.';
  const listed = others.map((s) => `${relative(s.root)} (${s.runner})`).join(', ');
  const what = others.length === 1 ? 'a project of its own' : `${others.length} projects of their own`;
  const command = ['run-tests', ...others.map((s) => shellQuote(relative(s.root)))].join(' ');
  const root = relative(selection.root);
  return [`not run: ${what} below ${root === '.' ? 'this directory' : root}, ${ran === null ? 'which has no runner' : `not ${ran}'s`}: ${listed}; run ${others.length === 1 ? 'it' : 'them'} with \`${command}\``];
}

/** The projects below a selection that runs a whole project of its own (a monorepo
 * root's, not a workspace its root ran for it), which its runner may leave out. */
export function projectsBelow(selection: ProjectSelection): Subproject[] {
  return selection.files.length === 0 && selection.reason === undefined ? subprojects(selection.root) : [];
}
