import { parseServiceConfig, readPositiveInt, type ServiceConfig } from '@talon/service-runtime';

/** Orchestrator settings, read and validated once at start. */
export interface OrchestratorConfig extends ServiceConfig {
  /** HTTP API (REST + SSE). Default 127.0.0.1:8080 (env `TALON_HTTP_HOST`, `TALON_HTTP_PORT`). */
  http: { host: string; port: number };
  /** gRPC API. Default 127.0.0.1:50051 (env `TALON_GRPC_HOST`, `TALON_GRPC_PORT`). */
  grpc: { host: string; port: number };
  /** How long `system.status` waits for instances by default. Default 500 ms (env `TALON_STATUS_TIMEOUT_MS`). */
  statusTimeoutMs: number;
}

export const DEFAULT_HTTP_PORT = 8080;
export const DEFAULT_GRPC_PORT = 50051;

export function parseOrchestratorConfig(env: NodeJS.ProcessEnv = process.env): OrchestratorConfig {
  return {
    ...parseServiceConfig('orchestrator', env),
    http: { host: env.TALON_HTTP_HOST || '127.0.0.1', port: readPositiveInt(env, 'TALON_HTTP_PORT', DEFAULT_HTTP_PORT) },
    grpc: { host: env.TALON_GRPC_HOST || '127.0.0.1', port: readPositiveInt(env, 'TALON_GRPC_PORT', DEFAULT_GRPC_PORT) },
    statusTimeoutMs: readPositiveInt(env, 'TALON_STATUS_TIMEOUT_MS', 500),
  };
}
