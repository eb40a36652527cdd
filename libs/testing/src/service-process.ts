import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { natsTestServerFor } from './nats-test-server.js';

/** The repository root, found from this file's location (libs/testing/{src,dist}). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A Talon service running as a real child process from its built `dist/main.js`. */
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
 * Starts `apps/<name>/dist/main.js` with the given environment and waits for its `ready` log line. When
 * `env.NATS_URL` is a server from {@link startNatsTestServer}, the service's NATS credentials (and an
 * orchestrator's bootstrap token) are added unless `env` sets them.
 */
export async function startServiceProcess(
  name: 'orchestrator' | 'tool-worker' | 'skill-service' | 'wasm-runner',
  env: Record<string, string>,
  options: { waitReady?: boolean; timeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const credentials = natsTestServerFor(env.NATS_URL)?.envFor(name) ?? {};
  const child = spawn(process.execPath, [join(REPO_ROOT, 'apps', name, 'dist', 'main.js')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      ...credentials,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
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
      child.kill(signal);
      return exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  if (options.waitReady ?? true) await waitForLog((line) => line.msg === 'ready', options.timeoutMs);
  return service;
}
