import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '../lib/commands.js';
import { timeFigure } from '../lib/figure.js';
import { tempDir } from '../lib/fixtures.js';
import { summarise, wallTimes } from '../lib/measure.js';
import { CHANGED_PLAN, CHANGED_RUN } from '../lib/targets.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const GO_PACKAGES = 64;
/** Each package imports the one before it in its chain: a change at a chain's head needs
 * the 8 packages of that chain, 1/8 of the module. */
const GO_CHAIN = 8;
const GO_TESTS = 20;
const JS_FILES = 100;
const JS_TESTS = 30;
/** Each test file imports one of these modules: a change to one needs 1/10 of the files. */
const JS_MODULES = 10;

const git = (dir, ...args) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'ignore' });

/** The project committed, then one source file changed (a comment appended). */
function committedWithChange(dir, file) {
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'bench');
  fs.appendFileSync(path.join(dir, file), '\n// changed\n');
}

/** 64 packages in chains of 8 (p1 imports p0, ..., p7 imports p6; p8 starts the next),
 * each with a source file and 20 tests of it. */
function goModule() {
  const dir = tempDir('changed-go');
  fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/changed\n\ngo 1.19\n');
  for (let p = 0; p < GO_PACKAGES; p += 1) {
    const pkg = path.join(dir, `p${p}`);
    fs.mkdirSync(pkg);
    const head = p % GO_CHAIN === 0;
    const source = head
      ? `package p${p}\n\n// F is the chain's first value.\nfunc F() int { return ${p} }\n`
      : `package p${p}\n\nimport "example.com/changed/p${p - 1}"\n\n// F adds one to the package before.\nfunc F() int { return p${p - 1}.F() + 1 }\n`;
    fs.writeFileSync(path.join(pkg, `p${p}.go`), source);
    const tests = Array.from({ length: GO_TESTS }, (_, i) => `func TestF${i}(t *testing.T) {\n\tif F() != ${p} {\n\t\tt.Fatal(F())\n\t}\n}\n`).join('\n');
    fs.writeFileSync(path.join(pkg, `p${p}_test.go`), `package p${p}\n\nimport "testing"\n\n${tests}`);
  }
  committedWithChange(dir, 'p0/p0.go');
  return { dir, tests: GO_PACKAGES * GO_TESTS, changedTests: GO_CHAIN * GO_TESTS, args: ['--no-cache'] };
}

/** 100 jest test files of 30 tests, file f importing src/m<f mod 10>.js. */
function jsProject() {
  const dir = tempDir('changed-jest');
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-changed', private: true, scripts: { test: 'jest' }, devDependencies: { jest: '*' } }, null, 2));
  fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'));
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.mkdirSync(path.join(dir, 'test'));
  for (let m = 0; m < JS_MODULES; m += 1) fs.writeFileSync(path.join(dir, 'src', `m${m}.js`), `exports.value = () => ${m};\n`);
  for (let f = 0; f < JS_FILES; f += 1) {
    const m = f % JS_MODULES;
    const tests = Array.from({ length: JS_TESTS }, (_, i) => `  test('case ${i}', () => {\n    expect(value() + ${i}).toBe(${m + i});\n  });\n`).join('');
    fs.writeFileSync(path.join(dir, 'test', `file${f}.test.js`), `const { value } = require('../src/m${m}.js');\n\ndescribe('file ${f}', () => {\n${tests}});\n`);
  }
  committedWithChange(dir, 'src/m0.js');
  return { dir, tests: JS_FILES * JS_TESTS, changedTests: (JS_FILES / JS_MODULES) * JS_TESTS, args: [] };
}

const passed = (n) => new RegExp(`"passed": ${n},`);

/** The full run, the plan of a one-file change and its --changed run, alternated. */
async function project(name, made, { runs, log }) {
  const { dir, tests, changedTests, args } = made;
  const full = runTests(['--json', ...args], { cwd: dir, label: 'full run', shown: `bin/run-tests.js --json ${args.join(' ')}`.trim(), expectOutput: passed(tests) });
  const plan = runTests(['plan', '--json'], { cwd: dir, label: 'plan', shown: 'bin/run-tests.js plan --json', expectOutput: /"units": \[\n\s+\{/ });
  const changed = runTests(['--changed', '--json', ...args], { cwd: dir, label: '--changed', shown: `bin/run-tests.js --changed --json ${args.join(' ')}`.trim(), expectOutput: passed(changedTests) });
  log(`changed: ${name} (full run vs plan vs --changed, a one-file change)`);
  const [fullMs, planMs, changedMs] = await wallTimes([full, plan, changed], { runs, log });
  return [
    timeFigure({ benchmark: 'changed', title: `testing a change: plan, ${name}`, a: plan, b: full, comparison: summarise(planMs, fullMs), ...CHANGED_PLAN }),
    timeFigure({ benchmark: 'changed', title: `testing a change: --changed, ${name}`, a: changed, b: full, comparison: summarise(changedMs, fullMs), ...CHANGED_RUN }),
  ];
}

export const changedBench = {
  name: 'changed',
  title: 'testing a change: plan and --changed of a one-file change against the full run',
  async run(context) {
    return [
      ...(await project(`${GO_PACKAGES}-package go module (${GO_PACKAGES * GO_TESTS} tests)`, goModule(), context)),
      ...(await project(`${JS_FILES * JS_TESTS}-test jest project`, jsProject(), context)),
    ];
  },
};
