import { StringDecoder } from 'node:string_decoder';
import { Writable } from 'node:stream';

/** A line longer than this is mapped as it stands rather than held in memory. */
const MAX_LINE = 1024 * 1024;

/** A stream that writes each whole line it is given to `target` as `map` turns it into
 * text (--stream of a runner that prints a machine format). It waits while the target
 * does not drain, so the writer's own waiting on it holds; an error of the target ends
 * it. end() maps an unfinished last line. */
export function mapLines(target: NodeJS.WritableStream, map: (line: string) => string): Writable {
  const decoder = new StringDecoder('utf8');
  let partial = '';
  const send = (text: string, done: (error?: Error | null) => void): void => {
    if (text === '' || target.write(text)) done();
    else target.once('drain', () => done());
  };
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const lines = (partial + decoder.write(chunk)).split('\n');
      partial = lines.pop() ?? '';
      if (partial.length > MAX_LINE) {
        lines.push(partial);
        partial = '';
      }
      send(lines.map(map).join(''), done);
    },
    final(done) {
      const rest = partial + decoder.end();
      partial = '';
      send(rest === '' ? '' : map(rest), done);
    },
  });
  target.once('error', (error: Error) => stream.destroy(error));
  return stream;
}
