/* Starts the project's own vitest through its programmatic API (parseCLI + createVitest),
 * as `vitest run` would, with run-tests' reporter added next to the configured ones and
 * the selection given as options. process.argv is rewritten to what the project's
 * `vitest ...` command line would show: vitest's threads pool shares this process's argv,
 * so tests that read it never see run-tests' options.
 *
 * node [node flags] launch.mjs --package <vitest dir> (--report <file> | --list)
 *      [--path <path>]... [--name <regex>] -- [the script's vitest arguments]
 *
 * A --path is exactly that file, or what is below that directory (given with a trailing
 * `/`): vitest's own filter would take it as a part of a path, and `test/a.test.ts` would
 * also select `test/a.test.tsx` and `other/test/a.test.ts`.
 * --list: the files `vitest list --filesOnly` lists for the same arguments and selection
 * (vitest's getRelevantTestSpecifications), written for run-tests --shard
 * (../shared/units-out.cjs); nothing runs. --plan [--related <file>]...: for each file, the
 * test files `vitest related <file>` would run (vite's module graph of each test file,
 * as vitest's own `related` reads it), with the files its configuration loads around every
 * test file (`setup`) and its forceRerunTriggers, for run-tests plan.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { NO_TEST_FILES_EXIT, parseLauncherArgs } from '../jest/launch-args.cjs';
import { writeUnits } from '../shared/units-out.cjs';
import RunTestsVitestReporter from './reporter.mjs';

const opts = parseLauncherArgs(process.argv.slice(2));
const bin = path.join(opts.package, 'vitest.mjs');
process.argv = [process.execPath, bin, ...opts.scriptArgs];
const { createVitest, parseCLI } = await import(pathToFileURL(path.join(opts.package, 'dist', 'node.js')).href);

// As vitest's own CLI start(): environment, run once, exit code, and exit().
process.env.TEST = 'true';
process.env.VITEST = 'true';
process.env.NODE_ENV ??= 'test';
let ctx;
let noFiles = false;
try {
  const parsed = parseCLI(['vitest', ...opts.scriptArgs]);
  const filters = opts.paths.length > 0 ? opts.paths : parsed.filter;
  const options = { ...parsed.options, run: true, watch: false, includeTaskLocation: true };
  if (opts.name !== null) options.testNamePattern = opts.name;
  ctx = await createVitest('test', options);
  if (opts.paths.length > 0) selectExactly(ctx, opts.paths);
  if (opts.list) {
    if (opts.plan) {
      const more = await relatedTests(ctx, filters, opts.related);
      await ctx.close();
      writeUnits([...new Set(Object.values(more.related).flat())], more);
      process.exit();
    }
    const files = (await ctx.getRelevantTestSpecifications(filters)).map((spec) => spec.moduleId);
    await ctx.close();
    writeUnits([...new Set(files)]);
    process.exit();
  }
  ctx.reporters.push(new RunTestsVitestReporter(opts.report));
  try {
    await ctx.start(filters);
  } catch (e) {
    // No test files matched: vitest reports it (and exits 1); we exit with our code for it.
    if (e?.name === 'FilesNotFoundError' || e?.constructor?.name === 'FilesNotFoundError') {
      noFiles = true;
    } else {
      process.exitCode = 1;
      ctx.logger.printError(e, { fullStack: true, type: 'Unhandled Error' });
    }
  }
  await ctx.exit();
  if (noFiles) process.exitCode = NO_TEST_FILES_EXIT;
} catch (e) {
  console.error(e?.stack ?? e);
  if (process.exitCode == null || process.exitCode === 0) process.exitCode = 1;
  if (ctx) await ctx.close().catch(() => {});
  process.exit();
}

/** vitest's `related` one file at a time (vite's transforms are cached after the first,
 * so each further file costs little): which test files depend on which changed file. */
async function relatedTests(vitest, filters, files) {
  const related = {};
  for (const file of files) {
    vitest.config.related = [file];
    related[file] = (await vitest.getRelevantTestSpecifications(filters)).map((spec) => spec.moduleId);
  }
  vitest.config.related = undefined;
  const projects = vitest.projects ?? [];
  const configs = [vitest.config, ...projects.map((project) => project.config)];
  const setup = configs.flatMap((config) => [...(config.setupFiles ?? []), ...(config.globalSetup ?? [])]);
  const triggers = configs.flatMap((config) => config.forceRerunTriggers ?? []);
  return { related, setup: [...new Set(setup)], triggers: [...new Set(triggers)] };
}

/** Narrows the files vitest finds for its filters (the paths) to exactly those paths: a
 * file itself, a directory (ending in `/`) what is below it, by the path given or its
 * real path, where vitest 3 and 4 choose the files of a run and of a listing (start()
 * and getRelevantTestSpecifications ask `specifications`). A vitest without it keeps
 * its own filter. */
function selectExactly(vitest, paths) {
  const forms = paths.flatMap((p) => {
    const real = realPath(p);
    return real === null || real === p ? [p] : [p, p.endsWith('/') ? `${real}/` : real];
  });
  const selected = (file) => forms.some((p) => (p.endsWith('/') ? file.startsWith(p) : file === p));
  const { specifications } = vitest;
  const relevant = specifications?.getRelevantTestSpecifications;
  if (typeof relevant !== 'function') return;
  specifications.getRelevantTestSpecifications = async (...args) => (await relevant.apply(specifications, args)).filter((spec) => selected(spec.moduleId));
}

function realPath(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}
