/** Command lines read as a POSIX shell would read plain words and quotes, without a
 * shell and without expanding anything: package.json scripts and `--command`. */

/** Splits a script into its commands (separated by `&&` or `;`), each split into words
 * as a POSIX shell would for plain words and quotes, without expanding anything. Null
 * when the line needs a shell for more than that: pipes, `||`, redirections,
 * substitutions, background jobs, or an unterminated quote. */
export function commandChain(line: string): string[][] | null {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  const endWord = () => {
    if (word !== null) words.push(word);
    word = null;
  };
  const endCommand = (): boolean => {
    endWord();
    if (words.length === 0) return false;
    commands.push(words);
    words = [];
    return true;
  };
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i] ?? '';
    if (quote === "'") {
      if (c === "'") quote = null;
      else word = `${word ?? ''}${c}`;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '$' || c === '`') return null;
      else if (c === '\\' && '"\\$`'.includes(line[i + 1] ?? 'x')) word = `${word ?? ''}${line[++i] ?? ''}`;
      else word = `${word ?? ''}${c}`;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < line.length) {
      word = `${word ?? ''}${line[++i] ?? ''}`;
    } else if (c === '&' && line[i + 1] === '&') {
      if (!endCommand()) return null;
      i += 1;
    } else if (c === ';') {
      if (!endCommand()) return null;
    } else if ('|&<>`$()\n'.includes(c)) {
      return null;
    } else if (/\s/.test(c)) {
      endWord();
    } else {
      word = (word ?? '') + c;
    }
  }
  if (quote !== null) return null;
  endCommand();
  return commands.length === 0 ? null : commands;
}

/** Splits a command line into words the way a POSIX shell would for plain words and
 * quotes, without expanding anything; null on an unterminated quote or on shell syntax
 * (a chain, a pipe, a substitution): one command, as commandChain reads it. */
export function shellWords(line: string): string[] | null {
  if (line.trim() === '') return [];
  const commands = commandChain(line);
  return commands?.length === 1 ? commands[0] ?? null : null;
}
