import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serviceEntry, serviceNodeOptions } from '@talon/service-runtime';
import { natsTestServerFor } from './nats-test-server.js';

/** The repository root, found from this file's location (libs/testing/{src,dist}). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A Talon service running as a real child process, started as `talon up` starts it (see `serviceEntry`). */
export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Every JSON log line seen so far. */
  logs: Array<Record<string, unknown>>;
  /** Resolves when a log line matching the predicate appears. */
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** SIGTERM and wait for exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL: a crash, no drain. */
  kill(): Promise<void>;
}

/**
 * Starts a service (its bundle, or `apps/<name>/dist/main.js` while the bundle is stale) with the given
 * environment and waits for its `ready` log line. When `env.NATS_URL` is a server from
 * {@link startNatsTestServer}, the service's NATS credentials (and an orchestrator's bootstrap token) are
 * added unless `env` sets them.
 */
export async function startServiceProcess(
  name: 'orchestrator' | 'tool-worker' | 'skill-service' | 'wasm-runner',
  env: Record<string, string>,
  options: {
    waitReady?: boolean;
    timeoutMs?: number;
    /** The file to start instead (a bundle made elsewhere, say); default {@link serviceEntry}'s choice. */
    entry?: string;
  } = {},
): Promise<ServiceProcess> {
  const credentials = natsTestServerFor(env.NATS_URL)?.envFor(name) ?? {};
  const nodeOptions = serviceNodeOptions(name, process.env.TALON_TEST_NODE_OPTIONS);
  const child = spawn(process.execPath, [options.entry ?? serviceEntry(REPO_ROOT, name)], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      // The service's own default flags, as `talon up` starts it, then the test run's (e.g.
      // --report-on-signal while chasing a hang), which win.
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...credentials,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  // TALON_TEST_LOG_DIR keeps every service's output in a file of its own, to read after a failed run.
  const logFile = process.env.TALON_TEST_LOG_DIR
    ? join(process.env.TALON_TEST_LOG_DIR, `${name}-${env.TALON_INSTANCE_ID ?? 'service'}-${child.pid}.log`)
    : undefined;
  if (logFile) {
    mkdirSync(dirname(logFile), { recursive: true });
    const sink = createWriteStream(logFile);
    child.stdout!.pipe(sink);
    child.stderr!.pipe(sink);
  }
  const listeners = new Set<() => void>();
  let stderr = '';
  let buffer = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      try {
        logs.push(JSON.parse(line));
      } catch {
        logs.push({ raw: line });
      }
      listeners.forEach((listener) => listener());
    }
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // A service that dies on its own is a finding: say so in the test output with its last words.
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(
      `[service-process] ${name} (pid ${child.pid}) exited on its own: code ${code}, signal ${signal}\nlast log lines: ${JSON.stringify(logs.slice(-5))}\nstderr: ${stderr.slice(-2000)}\n`,
    );
  });

  const waitForLog = (predicate: (line: Record<string, unknown>) => boolean, timeoutMs = 45_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const check = () => {
        const found = logs.find(predicate);
        if (found) {
          cleanup();
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `${name}: log line not seen in ${timeoutMs} ms.\nstdout: ${JSON.stringify(logs.slice(-10))}\nstderr: ${stderr.slice(-2000)}`,
          ),
        );
      }, timeoutMs);
      const onExit = () => {
        cleanup();
        reject(
          new Error(
            `${name} exited before the expected log line.\nstdout: ${JSON.stringify(logs.slice(-10))}\nstderr: ${stderr.slice(-2000)}`,
          ),
        );
      };
      const cleanup = () => {
        clearTimeout(timer);
        listeners.delete(check);
        child.off('exit', onExit);
      };
      listeners.add(check);
      child.once('exit', onExit);
      check();
    });

  const service: ServiceProcess = {
    name,
    child,
    logs,
    waitForLog,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      stopping = true;
      child.kill(signal);
      return exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      stopping = true;
      child.kill('SIGKILL');
      await exited;
    },
  };
  if (options.waitReady ?? true) await waitForLog((line) => line.msg === 'ready', options.timeoutMs);
  return service;
}
