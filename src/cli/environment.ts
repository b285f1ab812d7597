/** Where bin/run-tests.js keeps NODE_EXTRA_CA_CERTS while run-tests' own node starts
 * without it (see there). */
export const HIDDEN_CA_CERTS = 'RUN_TESTS_NODE_EXTRA_CA_CERTS';

/** Puts the environment back as the user gave it, before anything reads it: the
 * runner, `detect --json` and every child see NODE_EXTRA_CA_CERTS, never our copy. */
export function restoreHiddenEnv(env: NodeJS.ProcessEnv): void {
  const value = env[HIDDEN_CA_CERTS];
  if (value === undefined) return;
  delete env[HIDDEN_CA_CERTS];
  env['NODE_EXTRA_CA_CERTS'] ??= value;
}
