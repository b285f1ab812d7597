import { EXIT_CODE_MEANINGS } from '../model/exit-codes.js';

export const EXIT_CODE_TABLE = ['Exit codes:', ...EXIT_CODE_MEANINGS.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`)].join('\n');

export const EXAMPLES = `Examples:
  run-tests                              run the whole suite of the project here
  run-tests test/models/user_test.rb     one file (in a monorepo: its own subproject)
  run-tests --name /login/ --json        tests whose name matches, report as JSON
  run-tests --failed-only                rerun exactly the previous run's failures
  run-tests --timeout 60 --stream        give up after 60 s; show the runner's output
  run-tests detect                       which runner, command and project, and why
  run-tests runs                         the stored runs, newest first
  run-tests show --json                  the latest run's report again, as --json printed it`;
