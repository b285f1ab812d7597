export const EXIT_CODE_TABLE = `Exit codes:
  0    passed, or nothing to rerun (or no tests, with --allow-no-tests)
  1    tests failed
  2    usage error: nothing ran
  3    harness or runner error: no runner, runner missing or failed before any test, no usable report
  4    no tests ran (or fewer than --min-tests)
  124  timed out
  130  interrupted`;

export const EXAMPLES = `Examples:
  run-tests                              run the whole suite of the project here
  run-tests test/models/user_test.rb     one file (in a monorepo: its own subproject)
  run-tests --name /login/ --json        tests whose name matches, report as JSON
  run-tests --failed-only                rerun exactly the previous run's failures
  run-tests --timeout 60 --stream        give up after 60 s; show the runner's output
  run-tests detect                       which runner, command and project, and why
  run-tests runs                         the stored runs, newest first
  run-tests show --json                  the latest run's report again, as --json printed it`;
