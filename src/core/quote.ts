const SAFE = /^[\w@%+=:,./-]+$/;

/** POSIX shell quoting, for showing a command to a person. run-tests itself never runs
 * commands through a shell. */
export const shellQuote = (word: string): string => (SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

export function displayCommand(argv: readonly string[], env: NodeJS.ProcessEnv = {}, shownEnv: readonly string[] = []): string {
  const assignments = shownEnv.flatMap((key) => (env[key] === undefined ? [] : [`${key}=${shellQuote(env[key])}`]));
  return [...assignments, ...argv.map(shellQuote)].join(' ');
}
