/** The modules behind the commands, by name: scripts/build.js bundles this module apart
 * from the CLI (dist/commands.cjs), and the CLI loads it once a command runs, so that
 * `--version`, `--help` and a usage error compile none of it. Inside the bundle each
 * module is still evaluated only when a command imports it (`parse` alone loads TAP's). */
export const modules = {
  custom: () => import('./custom.js'),
  github: () => import('./github.js'),
  run: () => import('../core/run.js'),
  request: () => import('../model/request.js'),
  junit: () => import('../render/junit.js'),
  atomic: () => import('../store/atomic.js'),
  parse: () => import('./parse-command.js'),
  merge: () => import('./merge-command.js'),
  json: () => import('../render/json.js'),
  human: () => import('../render/human.js'),
  colors: () => import('../render/colors.js'),
  runs: () => import('./runs-command.js'),
  plan: () => import('./plan-command.js'),
  watch: () => import('./watch.js'),
  planText: () => import('../render/plan.js'),
  history: () => import('./history-command.js'),
  historyText: () => import('../render/history.js'),
};
