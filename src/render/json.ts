import type { RunReport } from '../model/report.js';

/** JSON.stringify escapes C0 controls but leaves DEL and C1 (U+009B is a CSI) raw; as
 * `\u009b` they are the same string to a JSON reader and inert on a terminal. Outside
 * strings JSON has no such characters, so every one replaced is inside a string. */
export const inertJson = (json: string): string => json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const renderJson = (report: RunReport): string => `${inertJson(JSON.stringify(report, null, 2))}\n`;
