import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonLogger } from '@talon/service-runtime';
import { reportUnreachable, startRunnerSandbox } from '../src/sandbox/runner-sandbox.js';

interface LogLine {
  level: string;
  msg: string;
  directory?: string;
  code?: string;
  fix?: string;
}

// Only a root service drops to another user (TALON_SANDBOX_UID, default 65534) who may be kept out.
(process.getuid?.() === 0 ? describe : describe.skip)('the runner sandbox at start, as root', () => {
  let base: string;
  let lines: LogLine[];
  let logger: JsonLogger;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'talon-runner-sandbox-'));
    lines = [];
    logger = new JsonLogger({ service: 'wasm-runner', instanceId: 'test' }, 'info', (line) =>
      lines.push(JSON.parse(line) as LogLine),
    );
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('hands the workspace over, then says which parent keeps the sandbox user out and how to fix it', () => {
    chmodSync(base, 0o700);
    const workspaceDir = join(base, 'state/workspace');
    const sandbox = startRunnerSandbox(
      { workspaceDir, sandboxMode: 'on', sandboxEgressAllowlist: [] },
      logger,
    );
    expect(sandbox.status.mode).toBe('bubblewrap');
    expect(statSync(workspaceDir).uid).toBe(sandbox.identity.uid);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        msg: `sandbox: the sandbox user cannot reach ${workspaceDir}; shell will be refused`,
        code: 'SANDBOX_PATH_UNREACHABLE',
        directory: base,
        fix: expect.stringContaining(`chmod o+x ${base}`),
      }),
    );
  });

  it('logs nothing more when every parent lets the sandbox user through', () => {
    chmodSync(base, 0o755);
    const workspaceDir = join(base, 'workspace');
    const sandbox = startRunnerSandbox(
      { workspaceDir, sandboxMode: 'on', sandboxEgressAllowlist: [] },
      logger,
    );
    const dataDir = join(base, 'mcp-data');
    mkdirSync(dataDir);
    reportUnreachable(sandbox, logger, 'stdio MCP servers that keep data', dataDir);
    expect(lines.filter((line) => line.level === 'error')).toEqual([]);
    chmodSync(base, 0o700);
    reportUnreachable(sandbox, logger, 'stdio MCP servers that keep data', dataDir);
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: `sandbox: the sandbox user cannot reach ${dataDir}; stdio MCP servers that keep data will be refused`,
        directory: base,
      }),
    );
  });
});
