import { describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execFile } from 'node:child_process';
import { isBuiltin } from 'node:module';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO } from './helpers.js';

const run = promisify(execFile);

describe('the npm package', () => {
  it('ships the built CLI, the reporters and the schema, and installs globally', async () => {
    const work = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-pack-'));
    // --ignore-scripts: dist/ is built already, and rebuilding it would race the other e2e tests.
    const { stdout } = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: REPO });
    const [{ filename, files }] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
    const paths = files.map((f) => f.path);
    for (const required of ['bin/run-tests.js', 'dist/run-tests.cjs', 'dist/commands.cjs', 'dist/detect.cjs', 'dist/mcp.cjs', 'dist/xml.cjs', 'reporters/minitest/minitest/run_tests_plugin.rb',
      'reporters/minitest/run_tests/minitest_boot.rb', 'reporters/rspec/run_tests_formatter.rb',
      'reporters/shared/jsonl-writer.cjs', 'schema/report.schema.json', 'schema/events.schema.json', 'README.md',
      'docs/runners/jest.md', 'docs/architecture.md', 'docs/cli.md', 'docs/ci.md', 'docs/json.md', 'docs/agents.md',
      'docs/development.md']) {
      expect(paths).toContain(required);
    }
    // The README's links to the runner pages work where the package is shown; Python's caches stay out.
    expect(paths.filter((p) => p.startsWith('test/') || p.startsWith('src/') || p.includes('__pycache__'))).toEqual([]);
    const prefix = path.join(work, 'prefix');
    await run('npm', ['install', '--global', '--prefer-offline', '--no-audit', '--no-fund', '--prefix', prefix, path.join(work, filename)], { cwd: work });
    const { version } = await fs.readJson(path.join(REPO, 'package.json'));
    const installed = await run(path.join(prefix, 'bin/run-tests'), ['--version'], { cwd: work });
    expect(installed.stdout).toBe(`${version}\n`);
    // tap-parser, the one library the bundle leaves out, loads from the install's node_modules.
    await fs.writeFile(path.join(work, 'run.tap'), 'TAP version 13\n1..2\nok 1 - adds\nnot ok 2 - subtracts\n');
    const failed = await run(path.join(prefix, 'bin/run-tests'), ['parse', '--format', 'tap', '--json', 'run.tap'], { cwd: work })
      .then(() => null, (error: { code: number; stdout: string }) => error);
    expect(failed?.code).toBe(1);
    expect(JSON.parse(failed?.stdout ?? '').summary).toMatchObject({ run: 2, passed: 1, failures: 1 });
    // The bundles that load others: the XML parser's for a JUnit report, detection's for detect.
    await fs.writeFile(path.join(work, 'run.xml'), '<testsuite name="s" tests="2"><testcase name="adds"/><testcase name="subtracts"><failure message="2 != 3"/></testcase></testsuite>\n');
    const junit = await run(path.join(prefix, 'bin/run-tests'), ['parse', '--format', 'junit', '--json', 'run.xml'], { cwd: work })
      .then(() => null, (error: { code: number; stdout: string }) => error);
    expect(junit?.code).toBe(1);
    expect(JSON.parse(junit?.stdout ?? '').summary).toMatchObject({ run: 2, passed: 1, failures: 1 });
    await fs.writeJson(path.join(work, 'package.json'), { name: 'p', scripts: { test: 'node --test' } });
    const detected = await run(path.join(prefix, 'bin/run-tests'), ['detect', '--json'], { cwd: work });
    expect(JSON.parse(detected.stdout)).toMatchObject({ framework: 'node-test', project_root: await fs.realpath(work) });
    // `run-tests mcp` loads its own bundle, the MCP SDK and zod inside it.
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: path.join(prefix, 'bin/run-tests'), args: ['mcp'], cwd: work, stderr: 'pipe' }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['detect', 'get_log', 'get_result', 'list_runs', 'plan_tests', 'run_tests']);
    } finally {
      await client.close();
    }
  });

  it('depends on exactly the packages the bundles load from node_modules, and on no other', async () => {
    const bundles = (await fs.readdir(path.join(REPO, 'dist'))).filter((file) => file.endsWith('.cjs')).map((file) => `dist/${file}`);
    expect(bundles.sort()).toEqual(['dist/commands.cjs', 'dist/detect.cjs', 'dist/mcp.cjs', 'dist/report.cjs', 'dist/run-tests.cjs', 'dist/xml.cjs']);
    const bundle = (await Promise.all(bundles.map((file) => fs.readFile(path.join(REPO, file), 'utf8')))).join('\n');
    // A subpath (`tap-parser/x.js`) is its package's.
    const packageOf = (request: string): string => request.split('/').slice(0, request.startsWith('@') ? 2 : 1).join('/');
    // Not one in a string: ajv's code generator writes `require("ajv/dist/runtime/…")` as text;
    // nor a bundle loading another (`require("./commands.cjs")`).
    const loaded = new Set([...bundle.matchAll(/(?<![`'"])\brequire\("([^"]+)"\)/g)].map((m) => m[1] as string).filter((name) => !isBuiltin(name) && !name.startsWith('./')).map(packageOf));
    const { dependencies = {}, devDependencies = {} } = await fs.readJson(path.join(REPO, 'package.json'));
    expect([...loaded].sort()).toEqual(Object.keys(dependencies).sort());
    // What the bundle holds was installed as a devDependency: commander is one of them.
    expect(bundle).toContain('node_modules/commander/');
    expect(bundle).toContain('node_modules/@modelcontextprotocol/sdk/');
    expect(bundle).toContain('node_modules/d3-scale/');
    expect(Object.keys(devDependencies)).toEqual(expect.arrayContaining(['commander', '@modelcontextprotocol/sdk', 'zod', 'd3-scale', 'd3-shape']));
  });
});
