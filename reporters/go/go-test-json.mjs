#!/usr/bin/env node
// Runs `go test -json …` for run-tests and keeps its structured stream in a report file.
//
//   node go-test-json.mjs --report <file> --module <module path> -- go test -json …
//
// Why a launcher: run-tests reads results from files it follows while the runner
// writes them, but go prints its JSON events on stdout. This process spawns go (argv
// only, never a shell) and appends every whole line of go's stdout and stderr to the
// report as it arrives (stderr too, because Go before 1.21 prints compiler errors there
// as plain text), so a killed run keeps every line that was written. The log gets what
// `go test -v` would have shown: the `Output` text of the events, and go's plain text.
// The report is framed by a start line (with the module path, which the parser needs
// to place `file_test.go:12:` inside its package directory) and an end line (go's exit),
// so a reader can tell a finished command from one that was cut off. It is opened for
// appending: one run may be several go commands (one per package for exact reruns).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

const USAGE = 'usage: go-test-json.mjs --report <file> --module <path> -- <command…>';

function parseArgs(argv) {
  const options = { report: null, module: '' };
  let i = 0;
  for (; i < argv.length && argv[i] !== '--'; i += 2) {
    if (argv[i] === '--report') options.report = argv[i + 1];
    else if (argv[i] === '--module') options.module = argv[i + 1] ?? '';
    else throw new Error(`unknown option ${argv[i]}; ${USAGE}`);
  }
  const command = argv.slice(i + 1);
  if (!options.report || command.length === 0) throw new Error(USAGE);
  return { ...options, command };
}

/** Splits a byte stream into whole lines; the last partial line waits for its end. */
function lineSplitter(onLines) {
  let carry = '';
  return {
    push(text) {
      const parts = (carry + text).split('\n');
      carry = parts.pop() ?? '';
      if (parts.length > 0) onLines(parts);
    },
    flush() {
      if (carry !== '') onLines([carry]);
      carry = '';
    },
  };
}

/** What `go test -v` would print for one line of go's stdout: an event's Output text. */
function logText(line) {
  if (!line.startsWith('{')) return `${line}\n`;
  try {
    const event = JSON.parse(line);
    if (typeof event.Output === 'string') return event.Output;
    return event.Action === undefined ? `${line}\n` : '';
  } catch {
    return `${line}\n`;
  }
}

function main() {
  let options;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const report = fs.openSync(options.report, 'a');
  const record = (object) => fs.writeSync(report, `${JSON.stringify(object)}\n`);
  const appendLines = (lines) => fs.writeSync(report, `${lines.join('\n')}\n`);
  record({ RunTests: 'start', Module: options.module, Command: options.command });

  const [file, ...args] = options.command;
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  // run-tests signals the whole process group: go and the test binaries get the signal
  // too. Stay until go has exited, so its last lines still reach the report.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => undefined);

  const stdout = lineSplitter((lines) => {
    appendLines(lines);
    process.stdout.write(lines.map(logText).join(''));
  });
  const stderr = lineSplitter(appendLines);
  child.stdout.setEncoding('utf8').on('data', (text) => stdout.push(text));
  child.stderr.setEncoding('utf8').on('data', (text) => {
    stderr.push(text);
    process.stderr.write(text);
  });

  let ended = false;
  child.on('error', (error) => {
    if (ended) return;
    ended = true;
    record({ RunTests: 'spawn-error', Command: file, Code: error.code ?? null, Message: error.message });
    record({ RunTests: 'end', ExitCode: 127, Signal: null });
    process.stderr.write(`run-tests: cannot start ${file}: ${error.message}\n`);
    fs.closeSync(report);
    process.exitCode = 127;
  });
  child.on('close', (code, signal) => {
    if (ended) return;
    ended = true;
    stdout.flush();
    stderr.flush();
    record({ RunTests: 'end', ExitCode: code, Signal: signal });
    fs.closeSync(report);
    if (signal === null) {
      process.exitCode = code ?? 1;
      return;
    }
    // Die of the same signal, so run-tests sees how go ended.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    process.exitCode = 128 + (os.constants.signals[signal] ?? 0);
  });
}

main();
