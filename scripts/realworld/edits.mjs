// What changed.mjs edits: which files of a checkout are source files of its language,
// which of them are sampled, and the one breaking edit each language gets. Pure functions
// of file lists and texts, so the choice is the same on every machine.

export const INJECTED = 'run-tests injected';

/** Each runner's language: its source files and the edit that breaks a file of it. Each
 * edit is appended, so that it runs (or, in Rust, is compiled) whenever the file is, after
 * whatever the file must start with (a shebang, a docstring, `from __future__`, magic
 * comments, `use strict`, imports), and never inside a construct. */
const LANGUAGES = {
  go: {
    source: /\.go$/,
    test: /_test\.go$|(^|\/)testdata\//,
    edit: `func init() { panic("${INJECTED}") }`,
  },
  rust: {
    source: /\.rs$/,
    test: /(^|\/)(tests|benches)\//,
    edit: `compile_error!("${INJECTED}");`,
  },
  python: {
    source: /\.py$/,
    test: /(^|\/)(tests?|testing)\/|(^|\/)(test_[^/]*|[^/]*_test|conftest)\.py$/,
    edit: `raise RuntimeError("${INJECTED}")`,
  },
  ruby: {
    source: /\.rb$/,
    test: /(^|\/)(spec|test)\/|_(spec|test)\.rb$/,
    edit: `raise "${INJECTED}"`,
  },
  js: {
    source: /\.([cm]?[jt]s|[jt]sx)$/,
    test: /(^|\/)(tests?|__tests__|__mocks__|spec|fixtures)\/|\.(test|spec)\.[^/]+$|\.d\.[cm]?ts$/,
    edit: `throw new Error("${INJECTED}");`,
  },
};

const LANGUAGE_OF_RUNNER = {
  go: 'go', cargo: 'rust', pytest: 'python', unittest: 'python',
  rspec: 'ruby', minitest: 'ruby', rails: 'ruby',
  jest: 'js', vitest: 'js', mocha: 'js', 'node-test': 'js',
};

export function languageOf(runner) {
  const language = LANGUAGE_OF_RUNNER[runner];
  if (language === undefined) throw new Error(`no edit is defined for runner ${runner}`);
  return language;
}

export const editText = (language) => LANGUAGES[language].edit;

/** The language's non-test files among `files` (tracked, relative to the project), below
 * one of `roots` when any are given, sorted. */
export function sourceFiles(files, language, roots = []) {
  const { source, test } = LANGUAGES[language];
  const under = (file) => roots.length === 0 || roots.some((root) => file === root || file.startsWith(`${root.replace(/\/$/, '')}/`));
  return files.filter((file) => source.test(file) && !test.test(file) && under(file)).sort();
}

/** `count` files spread evenly over the sorted list: the middle one of each of `count`
 * equal slices (every k-th, k = n / count, starting half a step in). All when fewer. */
export function sample(sorted, count) {
  if (sorted.length <= count) return [...sorted];
  return Array.from({ length: count }, (_, i) => sorted[Math.floor(((i + 0.5) * sorted.length) / count)]);
}

/** The file's text with the language's edit appended; in Ruby before `__END__`, whose
 * rest is data, not code. */
export function applyEdit(text, language) {
  const line = editText(language);
  if (language === 'ruby') {
    const end = text.search(/^__END__$/m);
    if (end >= 0) return `${text.slice(0, end)}${line}\n${text.slice(end)}`;
  }
  return `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}${line}\n`;
}
