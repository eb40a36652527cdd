import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLlmConfig, type LlmConfig } from '@talon/llm';
import { parseServiceConfig, readPositiveInt, type ServiceConfig } from '@talon/service-runtime';

/** Orchestrator settings, read and validated once at start. */
export interface OrchestratorConfig extends ServiceConfig {
  /** HTTP API (REST + SSE). Default 127.0.0.1:8080 (env `TALON_HTTP_HOST`, `TALON_HTTP_PORT`). */
  http: { host: string; port: number };
  /** gRPC API. Default 127.0.0.1:50051 (env `TALON_GRPC_HOST`, `TALON_GRPC_PORT`). */
  grpc: { host: string; port: number };
  /** How long `system.status` waits for instances by default. Default 500 ms (env `TALON_STATUS_TIMEOUT_MS`). */
  statusTimeoutMs: number;
  /** The model (env `TALON_LLM_PROVIDER`, `TALON_LLM_MODEL`, `TALON_LLM_BASE_URL`, `TALON_LLM_API_KEY`, `TALON_LLM_SCRIPT`). Default: none. */
  llm: LlmConfig;
  /** Local state directory. Default `.talon/state` (env `TALON_STATE_DIR`). */
  stateDir: string;
  /** Secrets key: 32 bytes as hex or base64 (env `TALON_SECRETS_KEY`); unset means a key file generated in the state dir. */
  secretsKey?: string;
  /** How long an approval waits before it counts as denied. Default 300000 ms (env `TALON_APPROVAL_TIMEOUT_MS`). */
  approvalTimeoutMs: number;
  /** Model calls per turn. Default 8 (env `TALON_MAX_ITERATIONS`). */
  maxIterations: number;
  /**
   * Where installable tools are listed, for resolving the tools a skill declares: WebAssembly tools in
   * `<registry>/tools/*.json` (env `TALON_TOOL_REGISTRY_DIR`, default `<root>/registry`) and MCP servers in
   * `TALON_MCP_REGISTRY_DIR` (default `<root>/registry/mcp-servers`); `<root>` is `TALON_ROOT` or the install root.
   */
  toolRegistry: { toolsDir: string; mcpServersDir: string };
  /**
   * Limits of an `execute_skill` sub-task (env `TALON_SKILL_TASK_MAX_DEPTH` default 3,
   * `TALON_SKILL_TASK_MAX_ITERATIONS` default 4, `TALON_SKILL_TASK_TIMEOUT_MS` default 120000,
   * `TALON_SKILL_TASK_MAX_TOKENS` default 50000).
   */
  skillTasks: { maxDepth: number; maxIterations: number; timeoutMs: number; maxTokens: number };
}

/** The install root (holds `registry/`), found from this file in `apps/orchestrator/dist/config`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export const DEFAULT_HTTP_PORT = 8080;
export const DEFAULT_GRPC_PORT = 50051;

export function parseOrchestratorConfig(env: NodeJS.ProcessEnv = process.env): OrchestratorConfig {
  return {
    ...parseServiceConfig('orchestrator', env),
    http: {
      host: env.TALON_HTTP_HOST || '127.0.0.1',
      port: readPositiveInt(env, 'TALON_HTTP_PORT', DEFAULT_HTTP_PORT),
    },
    grpc: {
      host: env.TALON_GRPC_HOST || '127.0.0.1',
      port: readPositiveInt(env, 'TALON_GRPC_PORT', DEFAULT_GRPC_PORT),
    },
    statusTimeoutMs: readPositiveInt(env, 'TALON_STATUS_TIMEOUT_MS', 500),
    llm: parseLlmConfig(env),
    stateDir: resolve(env.TALON_STATE_DIR || '.talon/state'),
    ...(env.TALON_SECRETS_KEY ? { secretsKey: env.TALON_SECRETS_KEY } : {}),
    approvalTimeoutMs: readPositiveInt(env, 'TALON_APPROVAL_TIMEOUT_MS', 300_000),
    maxIterations: readPositiveInt(env, 'TALON_MAX_ITERATIONS', 8),
    toolRegistry: toolRegistryOf(env),
    skillTasks: {
      maxDepth: readPositiveInt(env, 'TALON_SKILL_TASK_MAX_DEPTH', 3),
      maxIterations: readPositiveInt(env, 'TALON_SKILL_TASK_MAX_ITERATIONS', 4),
      timeoutMs: readPositiveInt(env, 'TALON_SKILL_TASK_TIMEOUT_MS', 120_000),
      maxTokens: readPositiveInt(env, 'TALON_SKILL_TASK_MAX_TOKENS', 50_000),
    },
  };
}

function toolRegistryOf(env: NodeJS.ProcessEnv): OrchestratorConfig['toolRegistry'] {
  const root = resolve(env.TALON_ROOT || INSTALL_ROOT);
  const registry = resolve(env.TALON_TOOL_REGISTRY_DIR || resolve(root, 'registry'));
  return {
    toolsDir: resolve(registry, 'tools'),
    mcpServersDir: resolve(env.TALON_MCP_REGISTRY_DIR || resolve(root, 'registry', 'mcp-servers')),
  };
}
