import { usageError } from '../../model/errors.js';
import type { CustomCommand } from '../../model/request.js';
import type { Runner, Invocation, PlanRequest } from '../types.js';

/** TAP printed on stdout (`--report tap:-`) lands here: the command's stdout is this
 * file, and its stderr is appended whole lines at a time. */
export const CAPTURED_TAP = 'custom-report.tap';

/** `--command … --report format:path`: a test command run-tests does not know. It is
 * never detected; it runs as given in the directory run-tests was started in, and the
 * same truth rules, timeout, log and artifacts apply. Files given on the command line
 * are appended to its arguments. --name and --failed-only have no meaning for a command
 * whose selection syntax run-tests does not know, so they are refused. */
export function customRunner(custom: CustomCommand): Runner {
  return {
    id: 'custom',
    markers: [],
    lookingFor: '--command',
    installHint: 'check the --command',
    detect: () => null,
    plan: (request) => plan(custom, request),
  };
}

/** A file is given as a file, never as an option of the command: `-x.sh` is `./-x.sh`. */
const fileOperand = (file: string): string => (file.startsWith('-') ? `./${file}` : file);

function plan(custom: CustomCommand, request: PlanRequest): Invocation {
  if (request.name !== null) throw usageError(`--name ${JSON.stringify(request.name.text)} cannot select tests of a --command: run-tests does not know its filter syntax; put the filter in the command`);
  if (request.rerun !== null) throw usageError("--failed-only cannot rerun tests of a --command: run-tests does not know how to select them; put the selection in the command");
  const parser = custom.report.format;
  const stdout = custom.report.path === '-';
  const report = stdout ? request.artifacts.file(CAPTURED_TAP) : custom.report.path;
  return {
    argv: [...custom.argv, ...request.files.map(fileOperand)],
    env: request.env,
    cwd: request.root,
    reports: [{ path: report, parser }],
    ...(stdout ? { captureOutput: report } : {}),
  };
}
