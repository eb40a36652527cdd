import { mkdirSync } from 'node:fs';
import { handOverToSandboxUser, Sandbox, SANDBOX_FIX } from '@talon/sandbox';
import type { JsonLogger } from '@talon/service-runtime';
import type { WasmRunnerConfig } from '../wasm-runner-config.js';

/**
 * The wasm-runner's sandbox, probed once at start, with the mode logged: `bubblewrap` at info, `off`
 * and `unavailable` as errors on every start so nobody misses them. When the runner is root, the
 * workspace is handed to the sandbox user so sandboxed commands can write it.
 */
export function startRunnerSandbox(config: WasmRunnerConfig, logger: JsonLogger): Sandbox {
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
