import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Options of {@link compileInChildProcess}. */
export interface CompileProcessOptions {
  /** `tools-src/compile-tool.mjs` of the install. */
  script: string;
  /** The compile is killed after this long. Default 180 000 ms. */
  timeoutMs?: number;
  /** Memory ceiling of the engine's initialisation (the module's top-level code). Default 512 MiB. */
  maxMemoryMb?: number;
}

/** The outcome of one compile. */
export type CompileOutcome =
  | { ok: true; bytes: Uint8Array; log: string; durationMs: number }
  | { ok: false; error: string; log: string; durationMs: number };

/** Default deadline of one compile. */
export const DEFAULT_COMPILE_TIMEOUT_MS = 180_000;
const MAX_LOG_CHARS = 8_000;

/**
 * Compiles generated JavaScript to a component in a child process (its own process group, killed whole at the
 * deadline): a crash, a hang in the module's top-level code or a runaway build never reaches the caller's process.
 */
export async function compileInChildProcess(
  source: string,
  options: CompileProcessOptions,
): Promise<CompileOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'talon-tool-build-'));
  const out = join(dir, 'component.wasm');
  const started = performance.now();
  const timeoutMs = options.timeoutMs ?? DEFAULT_COMPILE_TIMEOUT_MS;
  try {
    const { code, log, timedOut } = await new Promise<{
      code: number | null;
      log: string;
      timedOut: boolean;
    }>((resolve, reject) => {
      const child = spawn(process.execPath, [options.script, out], {
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH,
          TMPDIR: dir,
          TALON_WIZER_MAX_MEMORY_MB: String(options.maxMemoryMb ?? 512),
        },
      });
      let log = '';
      let timedOut = false;
      const append = (chunk: Buffer) => {
        if (log.length < MAX_LOG_CHARS) log += chunk.toString('utf8');
      };
      child.stdout.on('data', append);
      child.stderr.on('data', append);
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      }, timeoutMs);
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (exitCode) => {
        clearTimeout(timer);
        resolve({ code: exitCode, log: log.slice(0, MAX_LOG_CHARS), timedOut });
      });
      child.stdin.end(source);
    });
    const durationMs = performance.now() - started;
    if (timedOut)
      return {
        ok: false,
        error: `the compile did not finish within ${timeoutMs} ms and was stopped (does the module's top-level code loop?)`,
        log,
        durationMs,
      };
    if (code !== 0)
      return {
        ok: false,
        error: `the compile failed: ${log.trim() || `exit code ${code}`}`,
        log,
        durationMs,
      };
    return { ok: true, bytes: await readFile(out), log, durationMs };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
