/** Which rake task runs a minitest project's tests, read from its Rakefile as text (it
 * is never executed to detect): `Rake::TestTask.new(:spec)`, the block form
 * `Rake::TestTask.new { |t| t.name = "spec" }`, `Minitest::TestTask.create(:spec)`, and
 * `task default: :spec`. */
import type { ProjectFacts } from '../../project/facts.js';

export interface RakeTestTask {
  readonly name: string;
  /** `Rake::TestTask` reads `TEST`; `Minitest::TestTask` ignores it. */
  readonly kind: 'Rake::TestTask' | 'Minitest::TestTask';
  /** The file part of the task's own glob (`*_spec.rb` of `spec/**\/*_spec.rb`), if it sets one. */
  readonly filePattern: string | null;
}

export interface RakeTestChoice {
  readonly task: RakeTestTask;
  /** Why that task, when it is not a `test` task of the Rakefile's or rake's default. */
  readonly why: string | null;
}

const DECLARATION = /\b(Rake::TestTask\.new|Minitest::TestTask\.create)\b/g;
// A task name as Ruby writes it: :spec, :"spec", "spec", 'spec'.
const NAME = String.raw`(?::(\w+)|:?"([\w:-]+)"|:?'([\w:-]+)')`;
const ARGUMENT = new RegExp(String.raw`^\s*\(?\s*${NAME}`);
const NAME_SETTER = new RegExp(String.raw`\.name\s*=\s*${NAME}`);
const GLOB = /\.(?:pattern|test_files|test_globs)\s*=\s*(?:FileList\s*\[\s*|\[\s*)?["']([^"']+)["']/;
const DEFAULT_TASK = new RegExp(String.raw`^\s*task\s*\(?\s*(?:default:|:default\s*=>|["']default["']\s*=>)\s*(?:%i\[\s*(\w+)|\[?\s*${NAME})`, 'm');

/** Whole-line comments dropped: a commented-out task is not a task. */
const withoutComments = (text: string): string => text.split('\n').filter((line) => !/^\s*#/.test(line)).join('\n');

const nameOf = (m: RegExpExecArray | null, from: number): string | null => m?.[from] ?? m?.[from + 1] ?? m?.[from + 2] ?? null;

/** The block a declaration takes (`do |t| … end`, `{ |t| … }`), up to the first line
 * that closes a block: setters outside it (a gemspec's `s.name = "kramdown"` further
 * down) are not the task's. Empty without a block. */
function blockOf(body: string): string {
  const open = /^\s*(?:\([^)]*\))?\s*(do|\{)\s*\|\s*\w+\s*\|/.exec(body);
  if (open === null) return '';
  const rest = body.slice(open[0].length);
  const close = (open[1] === 'do' ? /^\s*end\b/m : /\}/).exec(rest);
  return close === null ? rest : rest.slice(0, close.index);
}

/** The test tasks the Rakefile's code declares, in order. */
function rakeTestTasks(code: string): RakeTestTask[] {
  const found = [...code.matchAll(DECLARATION)];
  return found.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const body = code.slice(start, found[i + 1]?.index ?? code.length);
    const block = blockOf(body);
    const name = nameOf(ARGUMENT.exec(body), 1) ?? nameOf(NAME_SETTER.exec(block), 1) ?? 'test';
    const glob = GLOB.exec(block)?.[1] ?? null;
    return {
      name,
      kind: m[1] === 'Rake::TestTask.new' ? 'Rake::TestTask' : 'Minitest::TestTask',
      filePattern: glob === null ? null : glob.slice(glob.lastIndexOf('/') + 1) || null,
    };
  });
}

const RAKE_TEST: RakeTestTask = { name: 'test', kind: 'Rake::TestTask', filePattern: null };
/** A plain `task :test` (or `task test: [...]`), which runs whatever its body says. */
const PLAIN_TEST_TASK = /^\s*task\s*\(?\s*(?::test\b|["']test["']|test:)/m;

/** The task to run: `test` when the Rakefile declares it (or declares no test task: rake
 * test, as before); else the default task when that is a test task; else the first one. */
export function chooseRakeTestTask(facts: Pick<ProjectFacts, 'read'>): RakeTestChoice {
  const code = withoutComments(facts.read('Rakefile') ?? '');
  const tasks = rakeTestTasks(code);
  const test = tasks.find((t) => t.name === 'test');
  if (test !== undefined) return { task: test, why: null };
  if (tasks.length === 0) {
    // Without a test task rake aborts, or, when a `test` directory exists, takes the
    // directory for the task and runs nothing: say so, since rake itself will not.
    const silent = facts.read('Rakefile') !== null && !PLAIN_TEST_TASK.test(code);
    return { task: RAKE_TEST, why: silent ? 'the Rakefile declares no test task: `rake test` runs only what rake finds under that name' : null };
  }
  const m = DEFAULT_TASK.exec(code);
  const defaultName = m?.[1] ?? nameOf(m, 2);
  const byDefault = tasks.find((t) => t.name === defaultName);
  if (byDefault !== undefined) {
    return { task: byDefault, why: `the Rakefile's default task \`${byDefault.name}\` is its ${byDefault.kind}` };
  }
  const [first] = tasks as [RakeTestTask];
  return { task: first, why: `the Rakefile's ${first.kind} is \`${first.name}\`` };
}
