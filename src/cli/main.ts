import { Command, CommanderError, Option } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { HarnessError, usageError } from '../model/errors.js';
import { EXIT } from '../model/exit-codes.js';
import { DEFAULT_MAX_FAILURES } from '../model/request.js';
import { RUNNER_IDS } from '../runners/ids.js';
import { EXAMPLES, EXIT_CODE_TABLE } from './help.js';
import { parseCount, parseIds, parseKeepRuns, parseMaxFailures, parseName, parseSeconds, parseSize, projectsRequest, resolveCwd, resolveExistingFile, resolveOperands, retriesRequest } from './options.js';
import { resolveJunitPath } from './junit-path.js';
import { shardRequest } from './shard.js';
import type { RunReport } from '../model/report.js';
import type { JunitTest } from '../render/junit.js';
import { packageRoot } from './package-root.js';
import { liveDisplay } from './live.js';
import { visible } from '../render/visible.js';
import { inertJson } from '../render/json.js';

const root = packageRoot();
const reportersDir = path.join(root, 'reporters');
const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

type Modules = (typeof import('./commands.js'))['modules'];

/** A command's module, from the commands' own bundle (./commands.ts). */
async function load<K extends keyof Modules>(name: K): Promise<Awaited<ReturnType<Modules[K]>>> {
  return (await import('./commands.js')).modules[name]() as Promise<Awaited<ReturnType<Modules[K]>>>;
}

interface RunOptions {
  file?: string;
  name?: string;
  failedOnly?: boolean;
  id?: string[];
  timeout: string;
  killGrace: string;
  maxLog: string;
  json?: boolean;
  cwd?: string;
  runner?: string;
  minTests: string;
  allowNoTests?: boolean;
  cache?: boolean;
  stream?: boolean;
  command?: string;
  report?: string;
  junit?: string;
  keepRuns: string;
  keepHistory: string;
  maxFailures: string;
  shard?: string;
  timings?: string;
  jobs?: string;
  allProjects?: boolean;
  changed?: string | true;
  watch?: boolean;
  retries: string;
  flakyFails?: boolean;
}

/** The only place that ends the process. */
function exit(code: number, stdout = ''): void {
  if (stdout === '') process.exit(code);
  process.stdout.write(stdout, () => process.exit(code));
}

async function run(files: string[], options: RunOptions, runnerArgs: readonly string[]): Promise<void> {
  if (options.command !== undefined && options.runner !== undefined) {
    throw usageError(`--runner ${JSON.stringify(options.runner)} cannot be combined with --command: the command is what runs`);
  }
  if (options.command !== undefined && runnerArgs.length > 0) throw usageError('--command takes no arguments after --: give them in the command');
  const cwd = resolveCwd(options.cwd);
  const custom = options.command === undefined && options.report === undefined
    ? null
    : (await load('custom')).parseCustomCommand(options.command, options.report, cwd);
  const reads = custom === null || custom.report.path === '-' ? [] : [custom.report.path];
  const junitPath = options.junit === undefined ? null : resolveJunitPath(cwd, options.junit, reads);
  let renderer: Promise<Renderer> | null = null;
  const operands = resolveOperands(cwd, files, options.file);
  const github = process.env['GITHUB_ACTIONS'] === 'true' ? (await load('github')).githubActions(process.env, options.json === true) : null;
  const request = {
    cwd,
    files: operands.files,
    locations: operands.locations,
    name: parseName(options.name),
    failedOnly: options.failedOnly === true,
    ids: parseIds(options.id ?? []),
    cwdGiven: options.cwd !== undefined,
    timeoutMs: parseSeconds('--timeout', options.timeout, { allowZero: false }),
    killGraceMs: parseSeconds('--kill-grace', options.killGrace, { allowZero: true }),
    maxLogBytes: parseSize('--max-log', options.maxLog),
    maxFailures: parseMaxFailures(options.maxFailures),
    runner: options.runner ?? null,
    minTests: parseCount('--min-tests', options.minTests),
    allowNoTests: options.allowNoTests === true,
    keepRuns: parseKeepRuns(options.keepRuns),
    ...retriesRequest(options, custom !== null),
    keepHistory: parseKeepRuns(options.keepHistory, '--keep-history'),
    ...projectsRequest(cwd, options, operands, custom !== null),
    noCache: options.cache === false,
    runnerArgs,
    // Under GitHub Actions the runner's own workflow commands reach the job.
    tee: github?.tee(options.stream === true) ?? (options.stream ? process.stderr : null),
    liveCount: await liveDisplay(options, process.env),
    env: process.env,
    reportersDir,
    custom,
    ...shardRequest(cwd, options, operands.locations, custom),
    changed: changedRequest(options.changed),
    onRunnerStarted: () => {
      if (renderer !== null) return;
      // Loaded while the runner runs rather than after it; a failure surfaces where it is awaited.
      renderer = loadRenderer(options.json === true);
      renderer.catch(() => undefined);
    },
  };
  if (request.failedOnly && request.name) throw new HarnessError('USAGE', '--failed-only reruns exact tests; it cannot be combined with --name');
  if (request.ids.length > 0 && (request.failedOnly || request.name || custom)) {
    throw usageError(`--id runs exactly the tests given; it cannot be combined with ${request.failedOnly ? '--failed-only' : request.name ? '--name' : '--command'}`);
  }
  if (custom && options.name !== undefined) throw new HarnessError('USAGE', `--name ${JSON.stringify(options.name)} cannot select tests of a --command`);
  if (request.locations.length > 0 && (request.failedOnly || request.name || request.ids.length > 0 || custom)) {
    const other = request.failedOnly ? '--failed-only' : request.name ? '--name' : request.ids.length > 0 ? '--id' : '--command';
    throw usageError(`${request.locations[0]?.operand} selects the tests at that place; it cannot be combined with ${other}`);
  }
  if (request.changed) {
    const other = request.failedOnly ? '--failed-only' : request.ids.length > 0 ? '--id' : request.locations.length > 0 ? request.locations[0]?.operand : custom ? '--command' : null;
    if (other) throw usageError(`--changed runs what the change needs; it cannot be combined with ${other}`);
  }
  if (options.watch === true) {
    const other = options.json ? '--json' : request.shard ? '--shard' : custom ? '--command' : request.failedOnly ? '--failed-only' : request.ids.length > 0 ? '--id' : options.junit !== undefined ? '--junit' : null;
    if (other) throw usageError(`--watch reruns on a terminal as files are saved; it cannot be combined with ${other}`);
  }
  if (custom && request.failedOnly) throw new HarnessError('USAGE', '--failed-only cannot select tests of a --command: run-tests does not know its test names');
  const [{ runTests }, { Interrupts }] = await Promise.all([load('run'), load('request')]);
  const interrupts = new Interrupts();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupts.raise(signal));
  // A closed terminal (SIGHUP) ends the run as SIGTERM does; by default it would kill run-tests alone.
  process.on('SIGHUP', () => interrupts.raise('SIGTERM'));
  if (options.watch === true) {
    const [{ watchRuns }, render] = await Promise.all([load('watch'), loadRenderer(false)]);
    // Keys as typed: q ends the watch; Ctrl-C then arrives as a key, not a signal.
    if (process.stdin.isTTY) process.stdin.setRawMode(true);
    exit(await watchRuns(request, { live: () => liveDisplay(options, process.env), render, out: process.stdout, input: process.stdin }, interrupts));
    return;
  }
  const { report, tests } = await runTests(request, interrupts);
  if (junitPath !== null) await writeJunit(junitPath, report, tests);
  await github?.finish(report);
  exit(report.exit_code, (await (renderer ?? loadRenderer(options.json === true)))(report));
}

/** `--changed [ref]`: commander gives `true` without a ref. */
function changedRequest(value: string | true | undefined): { ref: string | null } | null {
  if (value === undefined) return null;
  if (value === true) return { ref: null };
  if (value === '' || value.startsWith('-')) throw usageError(`--changed ${JSON.stringify(value)}: give a git ref (a branch, tag or commit), or nothing for the working tree against HEAD`);
  return { ref: value };
}

/** `run-tests plan`: what a change needs, per project; runs nothing. */
async function plan(files: string[], options: { changed?: string | true; json?: boolean; cwd?: string; runner?: string; allProjects?: boolean }): Promise<void> {
  const cwd = resolveCwd(options.cwd);
  const operands = resolveOperands(cwd, files, undefined);
  if (operands.locations.length > 0) throw usageError(`plan: ${operands.locations[0]?.operand} is a place in a file; give files or directories`);
  projectsRequest(cwd, options, operands, false);
  const [{ planProjects }, { renderPlan }] = await Promise.all([load('plan'), load('planText')]);
  const document = await planProjects({ cwd, files: operands.files, ref: changedRequest(options.changed ?? true)?.ref ?? null, allProjects: options.allProjects === true,
    runner: options.runner ?? null, env: process.env, reportersDir });
  const failed = document.projects.find((p) => p.error !== null)?.error;
  // A project with no runner is a harness error (3), as a run's would be; USAGE was thrown.
  const code = failed ? EXIT.HARNESS_ERROR : EXIT.OK;
  exit(code, options.json ? `${inertJson(JSON.stringify(document, null, 2))}
` : renderPlan(document.projects));
}

/** After the run: a write that fails now (a full disk) is a warning, never the exit code,
 * which stays the run's. The path was checked before the run (resolveJunitPath). */
async function writeJunit(file: string, report: RunReport, tests: readonly JunitTest[]): Promise<void> {
  const [{ junitChunks }, { writeFileAtomic }] = await Promise.all([load('junit'), load('atomic')]);
  try {
    writeFileAtomic(file, junitChunks(report, tests));
  } catch (error) {
    process.stderr.write(`run-tests: warning: --junit ${file} was not written: ${(error as Error).message}\n`);
  }
}

async function parse(file: string, options: { format?: string; json?: boolean; cwd?: string; junit?: string; maxFailures: string }): Promise<void> {
  const cwd = resolveCwd(options.cwd);
  const input = resolveExistingFile(cwd, file);
  const junitPath = options.junit === undefined ? null : resolveJunitPath(cwd, options.junit, [input]);
  const { importReport } = await load('parse');
  const { report, tests } = await importReport(input, options.format ?? null, cwd, parseMaxFailures(options.maxFailures));
  if (junitPath !== null) await writeJunit(junitPath, report, tests);
  if (process.env['GITHUB_ACTIONS'] === 'true') await (await load('github')).githubActions(process.env, options.json === true)?.finish(report);
  exit(report.exit_code, (await loadRenderer(options.json === true))(report));
}

/** `run-tests merge`: shard reports combined into one, reported as a run is. */
async function merge(files: string[], options: { json?: boolean; junit?: string; maxFailures: string; allowNoTests?: boolean }): Promise<void> {
  const cwd = process.cwd();
  const maxFailures = parseMaxFailures(options.maxFailures);
  const junitPath = options.junit === undefined ? null : resolveJunitPath(cwd, options.junit, files.map((f) => path.resolve(cwd, f)));
  const { report, tests } = (await load('merge')).mergeFiles(cwd, files, { maxFailures, allowNoTests: options.allowNoTests === true });
  if (junitPath !== null) await writeJunit(junitPath, report, tests);
  if (process.env['GITHUB_ACTIONS'] === 'true') await (await load('github')).githubActions(process.env, options.json === true)?.finish(report);
  exit(report.exit_code, (await loadRenderer(options.json === true))(report));
}

type Renderer = (report: RunReport) => string;

async function loadRenderer(json: boolean): Promise<Renderer> {
  if (json) return (await load('json')).renderJson;
  const [{ renderHuman }, { chalkFor }] = await Promise.all([load('human'), load('colors')]);
  const chalk = chalkFor(process.env);
  return (report) => renderHuman(report, chalk);
}

async function show(which: string | undefined, options: { json?: boolean; cwd?: string }): Promise<void> {
  const { storedReport } = await load('runs');
  const { text, report } = await storedReport(resolveCwd(options.cwd), which ?? 'last');
  // The stored file is the bytes --json printed; the human view is rendered again from it.
  exit(EXIT.OK, options.json ? text : (await loadRenderer(false))(report));
}

async function runs(options: { json?: boolean; cwd?: string; limit?: string }): Promise<void> {
  const { runListings, renderListings } = await load('runs');
  const listed = await runListings(resolveCwd(options.cwd), options.limit === undefined ? null : parseCount('--limit', options.limit));
  exit(EXIT.OK, options.json ? `${JSON.stringify({ runs: listed }, null, 2)}\n` : renderListings(listed));
}

/** `run-tests history`: each test's outcomes across the recorded runs (and --from reports). */
async function history(operand: string | undefined, options: { json?: boolean; cwd?: string; limit?: string; from?: string[] }): Promise<void> {
  const cwd = resolveCwd(options.cwd);
  // As a shell gives them: relative to where run-tests was started, not to --cwd.
  const from = (options.from ?? []).map((file) => resolveExistingFile(process.cwd(), file));
  const limit = options.limit === undefined ? undefined : parseCount('--limit', options.limit, { min: 1 });
  const [{ historyDocument }, { renderHistory }] = await Promise.all([load('history'), load('historyText')]);
  const document = historyDocument({ cwd, limit, from, operand: operand ?? null });
  exit(EXIT.OK, options.json ? `${inertJson(JSON.stringify(document, null, 2))}\n` : renderHistory(document));
}

/** `run-tests report`: the history as a static page. A bundle of its own (dist/report.cjs):
 * the chart library serves this command only, and every other command would compile it. */
async function report(options: { out?: string; cwd?: string; limit?: string; from?: string[] }): Promise<void> {
  const cwd = resolveCwd(options.cwd);
  const limit = options.limit === undefined ? null : parseCount('--limit', options.limit, { min: 1 });
  // As a shell gives them, as history's: relative to where run-tests was started, not to --cwd.
  const from = (options.from ?? []).map((file) => resolveExistingFile(process.cwd(), file));
  if (options.out === '') throw usageError('--out needs a directory, got ""');
  const out = options.out === undefined ? null : path.resolve(options.out);
  const { writeReportPage } = await import('./report-command.js');
  const written = writeReportPage({ cwd, out, limit, from });
  for (const warning of written.warnings) process.stderr.write(`run-tests: warning: ${visible(warning)}\n`);
  exit(EXIT.OK, `${visible(written.file)}\n`);
}

async function detect(options: { json?: boolean; cwd?: string; runner?: string }): Promise<void> {
  // A bundle of its own (dist/detect.cjs): detection and planning, a third of the commands' code.
  const { describeDetection } = await import('./detect-command.js');
  const { report, lines } = describeDetection(resolveCwd(options.cwd), options.runner ?? null, reportersDir, process.env);
  exit(EXIT.OK, options.json ? `${inertJson(JSON.stringify(report, null, 2))}\n` : `${visible(lines.join('\n'), { lines: true })}\n`);
}

async function mcp(options: { maxResponse: string }): Promise<void> {
  // No `0 for no cap` here: every response is bounded.
  const maxResponseBytes = parseSize('--max-response', options.maxResponse) ?? 0;
  if (maxResponseBytes < MIN_RESPONSE_BYTES) throw usageError(`--max-response must be at least ${MIN_RESPONSE_BYTES} bytes, got ${JSON.stringify(options.maxResponse)}`);
  // The SDK and zod are in the server's own bundle (dist/mcp.cjs), loaded by this command only.
  const { serveMcp } = await import('./mcp/server.js');
  await serveMcp({ version, reportersDir, maxResponseBytes });
  exit(EXIT.OK);
}

/** Below this a report's summary alone may not fit in an MCP response. */
const MIN_RESPONSE_BYTES = 1024;

/** `run-tests help [command]`: running tests is the program's own action, so `run` is its help. */
function help(cli: Command, name: string | undefined): void {
  const commands = cli.commands.filter((c) => c.name() !== 'help');
  const command = name === undefined || name === 'run' ? cli : commands.find((c) => c.name() === name);
  if (command === undefined) throw usageError(`help: there is no command ${JSON.stringify(name)}; the commands are run, ${commands.map((c) => c.name()).join(', ')}`);
  // As --help prints it, the text added after it (examples, exit codes) included.
  command.outputHelp();
  exit(EXIT.OK);
}

function program(runnerArgs: readonly string[] | null): Command {
  // exitOverride and configureOutput before the subcommands, so they inherit them: their
  // usage errors exit 2 too.
  const cli = new Command('run-tests')
    .exitOverride()
    // Commander echoes what it refuses (`unknown option '--\x1b[2J'`): shown with escapes.
    .configureOutput({ writeErr: (text) => process.stderr.write(visible(text, { lines: true })) })
    .enablePositionalOptions()
    .description('Run the project\'s tests and report the truth about them: for people on a terminal, and as JSON for programs.')
    .version(version, '-v, --version', 'print the version')
    // -V, commander's default, still works; -v is what most tools print their version with.
    .addOption(new Option('-V').hideHelp())
    .usage('[options] [command] [files... | file:line ...] [-- <runner args>]')
    .argument('[files...]', 'test files or directories to run (in a monorepo, each in its own project); file:line runs the tests at that line; after --, arguments for the runner')
    .option('--file <a,b>', 'comma-separated files, the same as positional files')
    .option('--name <pattern>', 'run tests whose name contains the text, or matches /regex/')
    .option('--failed-only', "rerun exactly the previous run's failures")
    .option('--id <id>', "run exactly the recorded failure with this id (a failed test's `id`); repeatable", (value: string, ids: string[] | undefined) => [...(ids ?? []), value])
    .addOption(new Option('--lf', "the same as --failed-only (pytest's name)").implies({ failedOnly: true }))
    .addOption(new Option('--only-failures', "the same as --failed-only (rspec's name)").implies({ failedOnly: true }))
    .option('--timeout <seconds>', 'kill the run after this long', '300')
    .option('--kill-grace <seconds>', 'after SIGTERM, wait this long before SIGKILL', '5')
    .option('--max-log <size>', "cap the run's log: keep the first and last half, e.g. 64M, 512K; 0 for no cap", '64M')
    .option('--max-failures <n>', 'list at most n failures in the report (last-failures.json keeps them all); 0 for no cap', String(DEFAULT_MAX_FAILURES))
    .option('--json', 'print the JSON report on stdout, and nothing else there')
    .option('--cwd <dir>', 'run as if started in this directory')
    .option('--runner <id>', `use this runner instead of detecting one (${RUNNER_IDS.join(', ')})`)
    .option('--min-tests <n>', 'fewer tests than this is a failure (status no_tests)', '1')
    .option('--allow-no-tests', 'zero tests run exits 0 (status stays no_tests)')
    .option('--no-cache', "run afresh what the runner would replay from its own result cache (go's test cache); other runners have none and ignore it")
    .option('--stream', "pass the runner's live output through to stderr")
    .option('--command <cmd>', 'run this test command instead of a detected runner (split into argv, never a shell); needs --report')
    .option('--report <format:path>', "where --command's report is: junit:<file>, tap:<file> or tap:- (TAP on stdout)")
    .option('--junit <path>', 'also write the results as JUnit XML')
    .option('--shard <i/n>', 'run the i-th of n parts of the selected tests, balanced by recorded durations (e.g. 2/4)')
    .option('--timings <file>', 'balance --shard by the durations in this run-tests JSON report or JUnit file')
    .option('--all-projects', 'run every project found below the directory (and its own, if it is one), each in its own root, merged into one report')
    .option('--jobs <n>', 'run up to n projects of a run at once (several subprojects, workspaces, --all-projects); default: the number of CPUs')
    .option('--keep-runs <n>', 'keep the newest n run directories in .run-tests/runs, this one included', '20')
    .option('--retries <n>', 'run each failing test again, up to n times, until it passes: one that passes on a retry is flaky', '0')
    .option('--flaky-fails', 'a flaky test (failed, then passed on a retry) fails the run')
    .option('--keep-history <n>', "keep the newest n runs' outcomes in .run-tests/history (what `run-tests history` reads), this one included", '200')
    .option('--changed [ref]', 'run only what the change needs (see `run-tests plan`): the working tree against HEAD, or everything since the merge base with ref')
    .option('--watch', 'after the run, rerun what each save needs (the recorded failures first) until q or Ctrl-C')
    .addHelpText('after', `\n${EXAMPLES}\n\n${EXIT_CODE_TABLE}\n`)
    .showSuggestionAfterError()
    .action((files: string[], options: RunOptions) => run(files, options, runnerArgs ?? []))
    // Only a run has a runner to give them to.
    .hook('preAction', (_cli, action) => {
      if (runnerArgs !== null && action.name() !== 'run-tests') throw usageError(`run-tests ${action.name()} takes no arguments after --; they are for the runner of a run`);
    });
  cli.on('option:V', () => {
    process.stdout.write(`${version}\n`);
    throw new CommanderError(EXIT.OK, 'commander.version', version);
  });
  cli.command('parse')
    .description("read a report another tool wrote (JUnit, TAP, go test -json, jest or rspec JSON, cargo) into the same JSON contract; marked source: imported")
    .argument('<file>', 'the report file')
    .addOption(new Option('--format <format>', 'the report format; detected from the content when omitted').choices(['junit', 'tap', 'go-json', 'jest-json', 'rspec-json', 'cargo']))
    .addOption(new Option('--json', 'print JSON'))
    .option('--cwd <dir>', 'make file paths relative to this directory')
    .option('--junit <path>', 'also write the results as JUnit XML')
    .option('--max-failures <n>', 'list at most n failures in the report; 0 for no cap', String(DEFAULT_MAX_FAILURES))
    .action(parse);
  cli.command('merge')
    .description('combine the --json reports of `run-tests --shard i/n` into one: every shard of one partition exactly once, each a completed run; marked source: merged')
    .argument('<reports...>', "the shards' JSON report files")
    .addOption(new Option('--json', 'print the merged JSON report'))
    .option('--junit <path>', "also write every shard's tests as JUnit XML")
    .option('--max-failures <n>', 'list at most n failures in the report; 0 for no cap', String(DEFAULT_MAX_FAILURES))
    .option('--allow-no-tests', 'no test run in any shard exits 0 (the status stays no_tests)')
    .action(merge);
  cli.command('show')
    .description("print a stored run's report as it was first printed (the latest completed run by default)")
    .argument('[id]', 'a run id from `run-tests runs`, or last')
    .addOption(new Option('--json', 'print the JSON report, byte for byte as --json printed it'))
    .option('--cwd <dir>', 'the project to look in')
    .action(show);
  cli.command('runs')
    .description('list the stored runs, newest first')
    .addOption(new Option('--json', 'print JSON: {"runs": [...]}'))
    .option('--limit <n>', 'at most n runs')
    .option('--cwd <dir>', 'the project to look in')
    .action(runs);
  cli.command('history')
    .description('print each test across the recorded runs: runs, failures, flaky verdicts, flips, median and p95 duration, trend')
    .argument('[name|file]', 'only the tests whose name contains this, or in this file or directory')
    .addOption(new Option('--json', 'print JSON: {"runs": [...], "tests": [...], "warnings": [...]}'))
    .option('--limit <runs>', 'only the newest n runs')
    .option('--from <report.json...>', 'also read these run-tests JSON reports as runs (a merged report: each shard its run)')
    .option('--cwd <dir>', 'the project to look in')
    .action(history);
  cli.command('plan')
    .description('print which tests the change needs in each project, and why; runs nothing')
    .argument('[files...]', 'limit the change to these files or directories (and choose their projects)')
    .option('--changed [ref]', 'measure the change since the merge base with ref (default: the working tree and index against HEAD)')
    .addOption(new Option('--json', 'print JSON: {"projects": [{project_root, framework, plan}]}'))
    .option('--cwd <dir>', 'plan as if started in this directory')
    .option('--runner <id>', 'override detection')
    .option('--all-projects', 'plan every project found below the directory')
    .action(plan);
  cli.command('report')
    .description('write the history of the runs as a static HTML page (no network, no script): runs over time, slowest and flakiest tests, the last run\'s failures, shard balance')
    .option('--out <dir>', 'write <dir>/index.html (default: .run-tests/report/)')
    .option('--limit <runs>', 'the newest n runs only')
    .option('--from <report.json...>', 'also read these run-tests JSON reports (merged shard reports) as runs')
    .option('--cwd <dir>', 'the project to look in')
    .action(report);
  cli.command('detect')
    .description('print which runner would run, the command, the project root and why; runs nothing')
    .addOption(new Option('--json', 'print JSON'))
    .option('--cwd <dir>', 'detect as if started in this directory')
    .option('--runner <id>', 'override detection')
    .action(detect);
  cli.command('mcp')
    .description('serve the Model Context Protocol on stdin/stdout: tools run_tests, plan_tests, get_result, list_runs, get_log, detect')
    .option('--max-response <size>', 'the most bytes of JSON one tool result holds, e.g. 64K; more is cut, and says so', '64K')
    .action(mcp);
  cli.command('help')
    .description('show the help of run-tests (run) or of one of its commands')
    .argument('[command]', 'run (running tests, the default) or another command')
    .action((name: string | undefined) => help(cli, name));
  return cli;
}

/** `run-tests [files] -- <runner args>`: the words after the first `--` are the
 * runner's, never read by commander (nor dispatched to a subcommand); null without `--`. */
function splitRunnerArgs(args: readonly string[]): { words: string[]; runnerArgs: string[] | null } {
  const end = args.indexOf('--');
  return end === -1 ? { words: [...args], runnerArgs: null } : { words: args.slice(0, end), runnerArgs: args.slice(end + 1) };
}

/** A reader that stops early (`run-tests --help | head -1`) closes the pipe: the rest of
 * the output is not wanted, which is no error; the exit code stays the run's. */
function ignoreClosedOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

async function main(): Promise<void> {
  ignoreClosedOutput();
  const { words, runnerArgs } = splitRunnerArgs(process.argv.slice(2));
  const cli = program(runnerArgs);
  try {
    await cli.parseAsync(words, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) exit(error.exitCode === 0 ? EXIT.OK : EXIT.USAGE);
    else if (error instanceof HarnessError) {
      process.stderr.write(`run-tests: ${visible(error.message, { lines: true })}\n`);
      exit(error.exitCode);
    } else {
      process.stderr.write(`run-tests: internal error: ${(error as Error).stack ?? String(error)}\n`);
      exit(EXIT.HARNESS_ERROR);
    }
  }
}

void main();
