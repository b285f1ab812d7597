import { Chalk, type ChalkInstance } from 'chalk';

/** chalk honours FORCE_COLOR but not NO_COLOR (no-color.org): a non-empty NO_COLOR turns
 * colour off unless FORCE_COLOR asks for it. */
export function chalkFor(env: NodeJS.ProcessEnv): ChalkInstance {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '' && env.FORCE_COLOR === undefined;
  return noColor ? new Chalk({ level: 0 }) : new Chalk();
}
