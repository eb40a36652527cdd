import { spawn } from 'node:child_process';
import { CappedOutputBuffer } from './capped-output-buffer.js';

/** How to run one command line. */
export interface ProcessRunOptions {
  /** The program (usually bubblewrap, from a prepared sandbox spawn) and its arguments. */
  program: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  /** Host user and group to run as (the sandbox user, when Talon runs as root). */
  uid?: number;
  gid?: number;
  timeoutMs: number;
  maxOutputBytes: number;
  /** Time between SIGTERM and SIGKILL once the command is stopped. */
  killGraceMs: number;
  signal?: AbortSignal;
}

/** What a finished command produced. */
export interface ProcessRunResult {
  /** Exit code, or null when a signal ended it. */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/**
 * Runs a program as the leader of a new process group, so the timeout can stop it and everything it
 * started (SIGTERM to the group, SIGKILL after the grace period). When it exits, whatever it left
 * running in its group is killed too. Under the sandbox the program is bubblewrap: killing it kills the
 * sandbox's pid namespace (`--die-with-parent`), so even a child that called setsid cannot stay behind.
 */
export function runInProcessGroup(options: ProcessRunOptions): Promise<ProcessRunResult> {
  const started = performance.now();
  return new Promise((resolvePromise, rejectPromise) => {
    const child = spawn(options.program, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout = new CappedOutputBuffer(options.maxOutputBytes);
    const stderr = new CappedOutputBuffer(options.maxOutputBytes);
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const stop = () => {
      killGroup('SIGTERM');
      killTimer ??= setTimeout(() => killGroup('SIGKILL'), options.killGraceMs);
    };
    const timeout = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      stop();
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    // Leftover background processes keep the pipes open; end them once the shell is gone.
    child.on('exit', () => killGroup('SIGKILL'));
    child.on('error', (error) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      rejectPromise(error);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timeout);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolvePromise({
        exitCode,
        signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        timedOut,
        aborted,
        durationMs: Math.round(performance.now() - started),
      });
    });
  });
}
