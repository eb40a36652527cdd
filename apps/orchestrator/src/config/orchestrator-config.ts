import { resolve } from 'node:path';
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
  /** Jobs and routines (issue 13). */
  autonomy: {
    /** Scheduler tick. Default 250 ms (env `TALON_SCHEDULER_TICK_MS`). */
    schedulerTickMs: number;
    /** Lease of a running job, renewed every third. Default 15000 ms (env `TALON_JOB_LEASE_MS`). */
    jobLeaseMs: number;
    /** Jobs run at once by one orchestrator. Default 8 (env `TALON_JOB_CONCURRENCY`). */
    jobConcurrency: number;
    /** How often skill triggers are synced into routines. Default 5000 ms (env `TALON_SKILL_ROUTINES_SYNC_MS`). */
    skillRoutinesSyncMs: number;
  };
}

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
    autonomy: {
      schedulerTickMs: readPositiveInt(env, 'TALON_SCHEDULER_TICK_MS', 250),
      jobLeaseMs: readPositiveInt(env, 'TALON_JOB_LEASE_MS', 15_000),
      jobConcurrency: readPositiveInt(env, 'TALON_JOB_CONCURRENCY', 8),
      skillRoutinesSyncMs: readPositiveInt(env, 'TALON_SKILL_ROUTINES_SYNC_MS', 5_000),
    },
  };
}
