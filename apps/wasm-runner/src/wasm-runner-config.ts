import { resolve } from 'node:path';
import { CidrAllowlist } from '@talon/safety';
import {
  parseServiceConfig,
  readPositiveInt,
  DEFAULT_TOOL_CONCURRENCY,
  InvalidConfigError,
  type ServiceConfig,
} from '@talon/service-runtime';

/** wasm-runner settings, read and validated once at start. */
export interface WasmRunnerConfig extends ServiceConfig {
  /** The one directory dev tools may touch. Default `<TALON_STATE_DIR>/workspace` (env `TALON_WORKSPACE_DIR`). */
  workspaceDir: string;
  /** Local state: installed tools, compile cache. Default `.talon/state` (env `TALON_STATE_DIR`). */
  stateDir: string;
  /** Calls this instance runs at once. Default 16 (env `WASM_RUNNER_CONCURRENCY`). */
  concurrency: number;
  /**
   * `on` (default): shell and stdio MCP servers run under bubblewrap and are refused when it cannot start;
   * `off`: unsandboxed, for an operator who accepts the risk (env `TALON_SANDBOX`).
   */
  sandboxMode: 'on' | 'off';
  /**
   * CIDR ranges the sandbox egress proxy allows despite being private, comma-separated (env
   * `TALON_SANDBOX_EGRESS_ALLOWLIST`, e.g. an internal package mirror). Default none.
   */
  sandboxEgressAllowlist: string[];
}

export function parseWasmRunnerConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): WasmRunnerConfig {
  const stateDir = resolve(cwd, env.TALON_STATE_DIR || '.talon/state');
  return {
    ...parseServiceConfig('wasm-runner', env),
    stateDir,
    workspaceDir: resolve(cwd, env.TALON_WORKSPACE_DIR || resolve(stateDir, 'workspace')),
    concurrency: readPositiveInt(env, 'WASM_RUNNER_CONCURRENCY', DEFAULT_TOOL_CONCURRENCY),
    sandboxMode: sandboxModeOf(env.TALON_SANDBOX),
    sandboxEgressAllowlist: egressAllowlistOf(env.TALON_SANDBOX_EGRESS_ALLOWLIST ?? ''),
  };
}

function egressAllowlistOf(raw: string): string[] {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  try {
    CidrAllowlist.parse(entries);
  } catch (error) {
    throw new InvalidConfigError(
      'TALON_SANDBOX_EGRESS_ALLOWLIST',
      raw,
      `comma-separated CIDR ranges or addresses (${(error as Error).message})`,
    );
  }
  return entries;
}

function sandboxModeOf(raw: string | undefined): 'on' | 'off' {
  if (raw === undefined || raw === '' || raw === 'on') return 'on';
  if (raw === 'off') return 'off';
  throw new InvalidConfigError('TALON_SANDBOX', raw, '`on` (the default) or `off`');
}
