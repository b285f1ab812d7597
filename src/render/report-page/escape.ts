import { visible } from '../visible.js';

/** The five characters that end text or an attribute value in HTML. */
const SPECIAL = /[&<>"']/g;
const ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text from a test, a runner or a file system, made inert in HTML: the special
 * characters as entities, so one escape serves text and quoted attributes alike (a test
 * named `<script>` shows as text; a file named `a" onload="x` stays one attribute value).
 * Control characters (a message's ANSI colours, a NUL) are not valid in HTML and show as
 * visible escapes, as on a terminal; newlines and tabs stay layout. */
export function escapeHtml(text: string): string {
  return visible(text, { lines: true }).replace(SPECIAL, (c) => ENTITY[c] ?? c);
}
