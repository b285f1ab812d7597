'use strict';
// Runs the project's own mocha through its own CLI code (rc files, package.json "mocha",
// --require, spec) with the run-tests reporter, while process.argv holds only the
// arguments of the project's command: tests that read process.argv see what `npm test`
// gives them. It writes the events file's run_start, the load errors, and, when the
// process ends before mocha's run does, a run_end saying where it stopped; the reporter
// writes the rest. Usage (written by src/runners/mocha/runner.ts):
//   node launcher.cjs <the script's mocha arguments> --run-tests --mocha <dir> --bin <path>
//     (--report <file> | --list) [--grep <regex>] [--all-specs] [files...]
// --list: the spec files mocha's own collect-files finds for those arguments, written for
// run-tests --shard (../shared/units-out.cjs); no test file is loaded. With them, the files
// every run loads first (`setup`: --require's and --file's, for run-tests plan).
const fs = require('node:fs');
const path = require('node:path');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');
const { spawn } = require('node:child_process');
const writer = require('./report-writer.cjs');
const { describeError, failureMessage } = require('../shared/errors.cjs');
const { writeUnits } = require('../shared/units-out.cjs');

const SENTINEL = '--run-tests';
/** Set for the child when node flags made us start node again; removed before tests load. */
const RESPAWNED = 'RUN_TESTS_MOCHA_RESPAWNED';
const STATE = Symbol.for('run-tests.mocha');

function parseOwn(words) {
  const own = { mocha: null, bin: null, report: null, list: false, grep: null, files: [] };
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    if (['--mocha', '--bin', '--report', '--grep'].includes(word)) own[word.slice(2)] = words[(i += 1)];
    else if (word === '--list') own.list = true;
    else own.files.push(word);
  }
  if (!own.mocha || !own.bin || (!own.report && !own.list)) throw new Error('run-tests mocha launcher: --mocha, --bin and --report (or --list) are required');
  return own;
}

const argv = process.argv.slice(2);
const at = argv.lastIndexOf(SENTINEL);
const userArgs = at === -1 ? argv : argv.slice(0, at);
const own = parseOwn(at === -1 ? [] : argv.slice(at + 1));
const respawned = process.env[RESPAWNED] === '1';
delete process.env[RESPAWNED];

/** A CommonJS module of mocha's by its path without extension: `lib/mocha.js` up to
 * mocha 11, `lib/mocha.cjs` from mocha 12 (an ES module package). */
function fromMocha(base) {
  const cjs = path.join(own.mocha, `${base}.cjs`);
  return require(fs.existsSync(cjs) ? cjs : path.join(own.mocha, `${base}.js`));
}
const { Mocha, loadOptions, isNodeFlag, unparseNodeFlags } = loadMocha();

/** mocha's modules that the launcher drives. A mocha without them (a broken install, a
 * release that moved them) is one run-tests cannot use: the events file says so, and the
 * run is RUNNER_UNSUPPORTED rather than a crash without results. */
function loadMocha() {
  try {
    return { Mocha: fromMocha('lib/mocha'), loadOptions: fromMocha('lib/cli/options').loadOptions, ...fromMocha('lib/cli/node-flags') };
  } catch (error) {
    const why = String(error?.message ?? error).split('\n')[0];
    if (own.list) {
      console.error(`the mocha in ${own.mocha} cannot be run by run-tests: ${why}`);
      return process.exit(1);
    }
    writer.open(own.report);
    writer.write({ event: 'unusable', code: 'RUNNER_UNSUPPORTED', message: `the mocha in ${own.mocha} cannot be run by run-tests: ${why}` });
    writer.flush();
    return process.exit(1);
  }
}

const options = loadOptions(userArgs);
const nodeFlags = nodeFlagsOf(options);

if (nodeFlags.length > 0 && !respawned) {
  // Like bin/mocha: node flags from the arguments or rc files need a new node process.
  // The child gets the same arguments, so its process.argv is the same too.
  const child = spawn(process.execPath, [...nodeFlags, __filename, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, [RESPAWNED]: '1' },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else {
  (own.list ? list() : run()).catch((error) => {
    console.error(error?.stack ?? error);
    process.exit(1);
  });
}

/** Sets an option under its name and every alias yargs gave it (undefined removes it). */
function setOption(opts, name, value) {
  const { aliases } = fromMocha('lib/cli/run-option-metadata');
  for (const key of [name, ...(aliases[name] ?? [])]) {
    if (value === undefined) delete opts[key];
    else opts[key] = value;
  }
}

function nodeFlagsOf(opts) {
  if (Array.isArray(opts['node-option'])) return opts['node-option'].map((v) => `--${v}`);
  const flags = {};
  for (const key of Object.keys(opts)) {
    if (key !== '_' && isNodeFlag(key)) flags[key !== 'v8-options' && key.startsWith('v8-') ? key.slice(3) : key] = opts[key];
  }
  return Object.keys(flags).length > 0 ? unparseNodeFlags(flags) : [];
}

async function run() {
  writer.open(own.report);
  let version = null;
  try {
    version = require(path.join(own.mocha, 'package.json')).version;
  } catch {
    version = null;
  }
  writer.write({ event: 'run_start', schema: 1, runner: 'mocha', runner_version: version ?? null, pid: process.pid });
  const state = { Mocha, file: null, test: null, ended: false, loadFailed: false, innerReporter: options.reporter ?? 'spec', definitions: new WeakMap() };
  globalThis[STATE] = state;
  watchLoading(state);
  const cwd = process.cwd();
  process.on('exit', (code) => {
    if (state.ended) return;
    // A load error is its own entry; anything else is said with where the run was.
    const warnings = state.loadFailed ? [] : [`mocha exited with code ${code} before its run ended, ${whereRunStopped(state, cwd)}`];
    writer.write({ event: 'run_end', pid: process.pid, interrupted: true, warnings });
  });

  selectFiles();
  if (own.grep !== null) {
    setOption(options, 'grep', own.grep);
    setOption(options, 'fgrep', undefined);
    setOption(options, 'invert', undefined);
  }
  setOption(options, 'reporter', path.join(__dirname, 'reporter.cjs'));
  await startCli();
}

/** The options without node's flags (this process has them), and the files run-tests
 * names in place of the spec. */
function selectFiles() {
  for (const key of Object.keys(options)) if (isNodeFlag(key)) delete options[key];
  setOption(options, 'node-option', undefined);
  if (own.files.length > 0) options._ = own.files;
}

async function startCli() {
  process.argv = [process.execPath, own.bin, ...userArgs];
  // An ES module from mocha 12, CommonJS before: import() loads either.
  const cli = await import(pathToFileURL(path.join(own.mocha, 'lib', 'cli', 'cli.js')).href);
  (cli.main ?? cli.default.main)([], options);
}

/** --list: mocha's CLI as a run goes (rc files, --require, spec, --ignore, --recursive,
 * --extension), up to where it collects the files to load: there the spec files (not
 * --file's, which every run loads first) are printed, and the process ends. */
async function list() {
  const collectFiles = fromMocha('lib/cli/collect-files');
  // run.js takes runMocha from run-helpers when the CLI loads it, after this.
  fromMocha('lib/cli/run-helpers').runMocha = async (_mocha, opts) => {
    // As runMocha gives them to collect-files (mocha 9 to 12).
    const { extension = [], ignore = [], recursive = false, sort = false, spec = [] } = opts;
    const found = collectFiles({ extension, ignore, file: [], recursive, sort, spec });
    // mocha 9 returns the files; mocha 10 and later { files, unmatchedFiles }.
    writeUnits(Array.isArray(found) ? found : found.files, { setup: setupFiles(opts) });
    process.exit(0);
  };
  selectFiles();
  await startCli();
}

/** The files every run loads before the spec files: --file's, and --require's that are
 * files (mocha takes one that exists, with or without .js, as a path from the working
 * directory, else as a module name); a package's are below node_modules. */
function setupFiles(opts) {
  const fromCwd = createRequire(path.join(process.cwd(), 'noop.js'));
  // Node's own --import=./x.mjs (--require=, --loader=; from --node-option or an rc file)
  // loads a file in node itself.
  const preloads = nodeFlags.map((flag) => /^--(?:import|require|r|loader|experimental-loader)=(.+)$/.exec(flag)?.[1]).filter(Boolean);
  const required = [...[].concat(opts.require ?? []), ...preloads].map((mod) => {
    if (fs.existsSync(mod) || fs.existsSync(`${mod}.js`)) return path.resolve(mod);
    try {
      return fromCwd.resolve(mod);
    } catch {
      return null;
    }
  });
  return [...[].concat(opts.file ?? []).map((file) => path.resolve(file)), ...required]
    .filter((file) => file !== null && !file.split(path.sep).includes('node_modules'));
}

/** Which file is loading (so a load error names it), and where each test and hook is
 * defined (mocha does not record it): the first stack frame in the file that defines it. */
function watchLoading(state) {
  const attach = (suite) => {
    suite.on('suite', attach);
    for (const event of ['test', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach']) {
      suite.on(event, (runnable) => {
        state.definitions.set(runnable, { file: state.file, line: definitionLine(new Error().stack, state.file) });
      });
    }
  };
  const watched = new WeakSet();
  const watch = (mocha) => {
    if (watched.has(mocha.suite)) return;
    watched.add(mocha.suite);
    attach(mocha.suite);
    mocha.suite.on('pre-require', (_context, file) => {
      state.file = file;
    });
  };
  const loadError = (error) => {
    const described = describeError(error);
    state.loadFailed = true;
    writer.write({ event: 'error', kind: 'load', file: state.file, message: failureMessage(described), stack: described.stack });
  };
  const loadFilesAsync = Mocha.prototype.loadFilesAsync;
  Mocha.prototype.loadFilesAsync = async function (...args) {
    watch(this);
    try {
      return await loadFilesAsync.apply(this, args);
    } catch (error) {
      loadError(error);
      throw error;
    }
  };
  const loadFiles = Mocha.prototype.loadFiles;
  Mocha.prototype.loadFiles = function (...args) {
    watch(this);
    try {
      return loadFiles.apply(this, args);
    } catch (error) {
      loadError(error);
      throw error;
    }
  };
}

/** The test file (relative to where mocha runs) and the test the process stopped in. */
function whereRunStopped(state, cwd) {
  if (state.file === null) return 'before loading any test file';
  const file = state.file.startsWith(`${cwd}${path.sep}`) ? state.file.slice(cwd.length + 1) : state.file;
  return state.test === null ? `in ${file}` : `in ${file}, during ${JSON.stringify(state.test)}`;
}

function definitionLine(stack, file) {
  if (!file || typeof stack !== 'string') return null;
  // The file as a path or as a URL (ES modules), found whole: a path may hold spaces and
  // parentheses, which no pattern for "a frame's path" can tell from the frame's own.
  const forms = [file, require('node:url').pathToFileURL(file).href];
  for (const frame of stack.split('\n')) {
    for (const form of forms) {
      const at = frame.lastIndexOf(`${form}:`);
      const m = at === -1 ? null : /^:(\d+):\d+\)?\s*$/.exec(frame.slice(at + form.length));
      if (m) return Number(m[1]);
    }
  }
  return null;
}
