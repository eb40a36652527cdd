import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ToolContext, ToolLogger } from '@talon/tool-runtime';
import { parseCapabilities, type Capabilities } from '../src/capabilities.js';

/** Repository root. */
export const ROOT = resolve(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '../../..');

let built = false;

/**
 * Builds the tool components from source (the build script skips unchanged ones) and compiles this library,
 * because worker threads load the compiled `dist/component-worker.js`.
 */
export function buildToolsAndWorker(): void {
  if (built) return;
  execFileSync(process.execPath, [join(ROOT, 'tools-src/build.mjs'), '--quiet'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  // A build failure fails the suite: running workers from a stale dist/ would test code that no longer exists.
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'libs/wasm-host'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    throw new Error(
      `tsc -b libs/wasm-host failed; fix the build before running these tests.\n${String((error as { stdout?: Buffer }).stdout ?? '')}`,
      { cause: error },
    );
  }
  built = true;
}

/** Bytes of a built component: a JS tool (`tools-src/<name>/build`) or a WAT tool (`tools-src/wat/build`). */
export function artifact(name: string, kind: 'js' | 'wat' = 'js'): Uint8Array {
  const path = kind === 'js' ? `tools-src/${name}/build/${name}.wasm` : `tools-src/wat/build/${name}.wasm`;
  return readFileSync(join(ROOT, path));
}

/** Path of a built component. */
export function artifactPath(name: string, kind: 'js' | 'wat' = 'js'): string {
  return join(
    ROOT,
    kind === 'js' ? `tools-src/${name}/build/${name}.wasm` : `tools-src/wat/build/${name}.wasm`,
  );
}

/** Capabilities from a plain object (validated like a file). */
export function capabilities(file: Record<string, unknown>): Capabilities {
  return parseCapabilities({ effects: [], ...file });
}

/** A temp folder removed by the returned cleanup. */
export function tempDir(prefix: string): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), `talon-${prefix}-`));
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

/** Collected log lines of a call context. */
export interface RecordedLog {
  level: string;
  message: string;
  fields?: Record<string, unknown>;
}

/** A tool context for one call, recording its log lines. */
export function toolContext(options: Partial<ToolContext> = {}): ToolContext & { logs: RecordedLog[] } {
  const logs: RecordedLog[] = [];
  const log: ToolLogger = (level, message, fields) => logs.push({ level, message, fields });
  return {
    callId: `call-${Math.random().toString(36).slice(2)}`,
    signal: new AbortController().signal,
    grants: [],
    log,
    logs,
    ...options,
  };
}
