/** Arguments passed through to a runner (`run-tests -- <args>`), read as the runner's
 * option parser reads them: what each runner refuses is in its own folder. */

/** The first argument that is one of the `refused` options, as `--opt` or `--opt=value`
 * (or `-opt=value` for go's single-dash names), and where one-letter options bundle
 * (getopt's `-fd`, `-pno:x`) also a one-letter option with anything after it; the
 * message is `"<arg>" cannot be passed to <runner>: <why>`. Null when none is refused. */
export function refusedOption(runner: string, args: readonly string[], refused: Readonly<Record<string, string>>, { bundles = true } = {}): string | null {
  for (const arg of args) {
    if (arg === '--') break;
    const option = optionOf(arg, refused, bundles);
    if (option !== null) return `${JSON.stringify(arg)} cannot be passed to ${runner}: ${refused[option]}`;
  }
  return null;
}

function optionOf(arg: string, refused: Readonly<Record<string, string>>, bundles: boolean): string | null {
  if (!arg.startsWith('-') || arg.length < 2) return null;
  const name = arg.split('=')[0] ?? arg;
  if (Object.hasOwn(refused, name)) return name;
  const short = arg.slice(0, 2);
  return bundles && !arg.startsWith('--') && Object.hasOwn(refused, short) ? short : null;
}
