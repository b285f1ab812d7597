import type { ChalkInstance } from 'chalk';

/** A failure's message in the colours its runner shows it in: jest's and vitest's
 * Expected (green) and Received (red) and their diff lines, and the code frame's failing
 * line and caret (red). The JSON keeps the text alone: colours are added here, never
 * read from the runner, so no escape from a test reaches the terminal. Other lines are
 * dimmed. The text is already bounded; a cut one ends with where the rest is, which
 * stays in view. */
export function messageLines(text: string, c: ChalkInstance): string[] {
  let diff = false;
  return text.split('\n').map((line) => {
    // A diff's lines are coloured only after its `- Expected` / `+ Received` header.
    if (/^\s*- Expected\b/.test(line) || /^\s*\+ Received\b/.test(line)) diff = true;
    else if (/^\s*>? ?\d+ ?\|/.test(line)) diff = false;
    return style(line, diff, c);
  });
}

function style(line: string, diff: boolean, c: ChalkInstance): string {
  if (/^\s*Expected(?: value)?:/.test(line) || (diff && /^\s*-/.test(line))) return c.green(line);
  if (/^\s*Received(?: value)?:/.test(line) || (diff && /^\s*\+/.test(line))) return c.red(line);
  // The code frame: `> 11 |   expect(…)` and the caret under it, as jest and vitest mark them.
  if (/^\s*> ?\d+ ?\|/.test(line) || /^\s*\|\s*\^+\s*$/.test(line)) return c.red(line);
  return c.dim(line);
}
