import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { HarnessError } from '../../model/errors.js';
import { visible } from '../../render/visible.js';
import type { Bounded } from './bounded.js';
import { startRun, type ChildRun } from './run-child.js';
import { boundedReport, DESCRIPTIONS, detect, getLog, getResult, listRuns, planTests, SCHEMAS } from './tools.js';

/** `run-tests mcp`: loaded only by that command, so that no other command pays for the SDK. */
export interface ServeOptions {
  readonly version: string;
  readonly reportersDir: string;
  /** The most bytes of JSON one tool result holds (--max-response). */
  readonly maxResponseBytes: number;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Structured content, and the same JSON as text for clients that read only text. */
const result = (value: Bounded): CallToolResult => ({ structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }] });
/** The CLI's message when it printed no report (a usage error, no runner), as --max-response allows. */
function failure(message: string, limit: number): CallToolResult {
  const shown = visible(message, { lines: true });
  const text = Buffer.byteLength(shown) <= limit ? shown : `${Buffer.from(shown).subarray(0, limit - 64).toString('utf8').replace(/\uFFFD$/, '')}\n… (cut at --max-response ${limit} bytes)`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/** A harness error (bad input, no such run, no runner) is the tool's error result, bounded;
 * anything else is left to the SDK, which reports it as an error result too. */
async function answer(limit: number, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof HarnessError) return failure(error.message, limit);
    throw error;
  }
}

/** Progress notifications of finished tests, when the client asked for them with a token. */
function progressOf(extra: Extra): ((finished: number) => void) | null {
  const token = extra._meta?.progressToken;
  if (token === undefined) return null;
  return (finished) => {
    const params = { progressToken: token, progress: finished, message: `${finished} tests finished` };
    void extra.sendNotification({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

/** Serves until the client closes stdin or the server gets SIGINT/SIGTERM/SIGHUP; then
 * every run still going is interrupted, as Ctrl-C would, and waited for. */
export async function serveMcp(options: ServeOptions): Promise<void> {
  const limit = options.maxResponseBytes;
  const running = new Set<ChildRun>();
  const server = new McpServer({ name: 'run-tests', version: options.version });
  const describe = <K extends keyof typeof SCHEMAS>(name: K) => ({ description: DESCRIPTIONS[name], inputSchema: SCHEMAS[name] });

  server.registerTool('run_tests', describe('run_tests'), (input, extra) => answer(limit, async () => {
    const run = startRun(input, progressOf(extra));
    running.add(run);
    const onAbort = () => run.interrupt();
    extra.signal.addEventListener('abort', onAbort);
    if (extra.signal.aborted) onAbort();
    try {
      const outcome = await run.outcome;
      return outcome.kind === 'error' ? failure(outcome.message, limit) : result(boundedReport(outcome.report, limit));
    } finally {
      extra.signal.removeEventListener('abort', onAbort);
      running.delete(run);
    }
  }));
  server.registerTool('get_result', describe('get_result'), (input) => answer(limit, async () => result(await getResult(input, limit))));
  server.registerTool('list_runs', describe('list_runs'), (input) => answer(limit, async () => result(await listRuns(input, limit))));
  server.registerTool('get_log', describe('get_log'), (input) => answer(limit, async () => result(await getLog(input, limit))));
  server.registerTool('detect', describe('detect'), (input) => answer(limit, async () => result(detect(input, limit, options.reportersDir))));
  server.registerTool('plan_tests', describe('plan_tests'), (input) => answer(limit, async () => result(await planTests(input, limit, options.reportersDir))));

  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  // The SDK's transport does not end at the end of stdin: the client has gone then.
  process.stdin.once('end', () => void server.close());
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void server.close());
  await server.connect(new StdioServerTransport());
  await closed;
  const left = [...running];
  for (const run of left) run.interrupt();
  await Promise.allSettled(left.map((run) => run.outcome));
}
