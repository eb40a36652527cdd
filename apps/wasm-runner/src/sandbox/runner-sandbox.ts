import { mkdirSync } from 'node:fs';
import { handOverToSandboxUser, Sandbox, SandboxPathUnreachableError, SANDBOX_FIX } from '@talon/sandbox';
import type { JsonLogger } from '@talon/service-runtime';
import type { WasmRunnerConfig } from '../wasm-runner-config.js';

/**
 * The wasm-runner's sandbox, probed once at start, with the mode logged: `bubblewrap` at info, `off`
 * and `unavailable` as errors on every start so nobody misses them. When the runner is root, the
 * workspace is handed to the sandbox user so sandboxed commands can write it; a parent directory that
 * user cannot enter is logged as an error at start (every `shell` call is then refused with
 * `SANDBOX_PATH_UNREACHABLE` until it is fixed).
 */
export function startRunnerSandbox(
  config: Pick<WasmRunnerConfig, 'workspaceDir' | 'sandboxMode' | 'sandboxEgressAllowlist'>,
  logger: JsonLogger,
): Sandbox {
  const sandbox = Sandbox.create({
    mode: config.sandboxMode,
    egressAllowlist: config.sandboxEgressAllowlist,
    onEgress: (decision) =>
      logger.write(decision.allowed ? 'info' : 'warn', 'sandbox egress', { ...decision }),
  });
  const { status } = sandbox;
  if (status.mode === 'bubblewrap') {
    mkdirSync(config.workspaceDir, { recursive: true });
    const changed = handOverToSandboxUser(config.workspaceDir, sandbox.identity);
    logger.write('info', 'sandbox: shell and stdio MCP servers run under bubblewrap', {
      detail: status.detail,
      sandboxUid: sandbox.identity.uid,
      ...(changed > 0 ? { workspaceEntriesHandedOver: changed } : {}),
    });
    reportUnreachable(sandbox, logger, 'shell', config.workspaceDir);
  } else if (status.mode === 'off') {
    logger.write(
      'error',
      'SANDBOX OFF (TALON_SANDBOX=off): shell commands and stdio MCP servers run unsandboxed with this service’s own user, filesystem and network',
      { mode: status.mode },
    );
  } else {
    logger.write('error', 'sandbox unavailable: shell and stdio MCP servers will be refused', {
      reason: status.detail,
      fix: SANDBOX_FIX,
    });
  }
  return sandbox;
}

/**
 * Logs an error at start when the sandbox user cannot reach `path` (the workspace, the MCP data
 * directory): the spawns that bind it will be refused, and the log says which directory and how to fix it.
 */
export function reportUnreachable(sandbox: Sandbox, logger: JsonLogger, what: string, path: string): void {
  try {
    sandbox.assertReachable(what, [path]);
  } catch (error) {
    if (!(error instanceof SandboxPathUnreachableError)) throw error;
    logger.write('error', `sandbox: the sandbox user cannot reach ${path}; ${what} will be refused`, {
      code: error.code,
      reason: error.message,
      ...(error.details as Record<string, unknown>),
    });
  }
}
