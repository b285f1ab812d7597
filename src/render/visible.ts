/** Characters a terminal acts on rather than shows: C0 controls, DEL and C1 controls
 * (U+009B is a CSI on its own). ESC starts every escape sequence, so showing it as text
 * leaves the rest of a sequence as harmless text too. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** The same, but newline and tab kept: the layout of a multi-line message. */
const CONTROL_BUT_LAYOUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const escape = (c: string): string => {
  const code = c.charCodeAt(0);
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** Text from a test, a runner or a file system, made safe to print on a terminal: every
 * control character as a visible escape (`\x1b`, `\x07`, `\u009b`), so a test name or a
 * failure message cannot move the cursor, clear the screen or set the window title.
 * `lines` keeps newlines and tabs (a message); otherwise they are escaped too (a name). */
export function visible(text: string, { lines = false }: { lines?: boolean } = {}): string {
  // A CR before a newline moves nothing a newline would not: Windows line ends stay plain.
  return lines ? text.replace(/\r\n/g, '\n').replace(CONTROL_BUT_LAYOUT, escape) : text.replace(CONTROL, escape);
}
