import { resolve } from 'node:path';
import {
  parseServiceConfig,
  readPositiveInt,
  DEFAULT_TOOL_CONCURRENCY,
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
  };
}
