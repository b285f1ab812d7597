import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** A headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
 * JSON messages ended by NUL on fds 3 and 4), so no library and no port: nothing else on
 * the machine can reach it. Every event is kept, for the test to assert on. */
export interface Browser {
  /** A command to the browser, or with `session` to a page. */
  send(method: string, params?: Record<string, unknown>, session?: string): Promise<Record<string, unknown>>;
  /** Resolves with the first event of this name that `match` accepts, among those seen
   * from index `since` in `events` on, or yet to come. */
  event(method: string, deadlineMs: number, match?: (params: Record<string, unknown>) => boolean, since?: number): Promise<Record<string, unknown>>;
  readonly events: { method: string; params: Record<string, unknown>; sessionId?: string }[];
  close(): Promise<void>;
}

interface Message { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string }

/** Networking is off twice over: every request goes to a proxy at a port nothing listens
 * on, and the page is also put offline by the protocol (openPage). */
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', '--no-first-run', '--no-default-browser-check',
  '--disable-extensions', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps',
  '--proxy-server=127.0.0.1:9', '--proxy-bypass-list=<-loopback>', '--hide-scrollbars', '--mute-audio'];

export function launchChromium(executable = 'chromium'): Browser {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'run-tests-chromium-'));
  const child = spawn(executable, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  const pending = new Map<number, { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }>();
  const waiters: { method: string; match: (p: Record<string, unknown>) => boolean; resolve: (p: Record<string, unknown>) => void }[] = [];
  const events: Browser['events'] = [];
  let nextId = 1;
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let end: number;
    while ((end = buffered.indexOf('\0')) >= 0) {
      receive(JSON.parse(buffered.slice(0, end)) as Message);
      buffered = buffered.slice(end + 1);
    }
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  child.on('exit', (code, signal) => {
    for (const { reject } of pending.values()) reject(new Error(`chromium exited (${code ?? signal}) before answering: ${stderr.slice(-2000)}`));
    pending.clear();
  });

  function receive(message: Message): void {
    if (message.id !== undefined) {
      const call = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) call?.reject(new Error(message.error.message));
      else call?.resolve(message.result ?? {});
      return;
    }
    if (message.method === undefined) return;
    const params = message.params ?? {};
    events.push({ method: message.method, params, ...(message.sessionId === undefined ? {} : { sessionId: message.sessionId }) });
    for (const waiter of waiters.filter((w) => w.method === message.method && w.match(params))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(params);
    }
  }

  return {
    events,
    send(method, params = {}, session) {
      const id = nextId++;
      input.write(`${JSON.stringify({ id, method, params, ...(session === undefined ? {} : { sessionId: session }) })}\0`);
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    event(method, deadlineMs, match = () => true, since = 0) {
      const seen = events.slice(since).find((e) => e.method === method && match(e.params));
      if (seen !== undefined) return Promise.resolve(seen.params);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${method} within ${deadlineMs} ms`)), deadlineMs);
        waiters.push({ method, match, resolve: (p) => { clearTimeout(timer); resolve(p); } });
      });
    },
    async close() {
      await closeChild(child, exited, () => input.write(`${JSON.stringify({ id: nextId++, method: 'Browser.close', params: {} })}\0`));
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Browser.close, and SIGKILL if the browser has not gone after a grace period. */
async function closeChild(child: ChildProcess, exited: Promise<void>, askToClose: () => void): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  askToClose();
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** A new page, attached, with what the test watches enabled and the network offline. */
export async function openPage(browser: Browser, width: number, height: number): Promise<string> {
  const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
  const session = String(sessionId);
  for (const domain of ['Page', 'Runtime', 'Network', 'Log']) await browser.send(`${domain}.enable`, {}, session);
  await browser.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 }, session);
  await browser.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false }, session);
  return session;
}

/** Loads `url` in the page and resolves once its load event fired: the first load event
 * after the frame committed to `url` (never about:blank's, which may come late). */
export async function navigate(browser: Browser, session: string, url: string, deadlineMs: number): Promise<void> {
  const committed = browser.event('Page.frameNavigated', deadlineMs, (p) => (p['frame'] as { url?: string } | undefined)?.url === url);
  await browser.send('Page.navigate', { url }, session);
  await committed;
  const after = browser.events.findIndex((e) => e.method === 'Page.frameNavigated' && (e.params['frame'] as { url?: string }).url === url);
  await browser.event('Page.loadEventFired', deadlineMs, () => true, after);
}

/** A value computed in the page (`expression` is a script that returns JSON-able data). */
export async function evaluate<T>(browser: Browser, session: string, expression: string): Promise<T> {
  const { result, exceptionDetails } = await browser.send('Runtime.evaluate', { expression, returnByValue: true }, session) as { result: { value: T }; exceptionDetails?: unknown };
  if (exceptionDetails !== undefined) throw new Error(`evaluate threw: ${JSON.stringify(exceptionDetails)}`);
  return result.value;
}
