import { join, resolve } from 'node:path';
import { IANAZone } from 'luxon';
import { fileURLToPath } from 'node:url';
import { parseLlmConfig, type LlmConfig } from '@talon/llm';
import { DEFAULT_TOKEN_CACHE_MS, looksLikeApiToken } from '@talon/auth';
import { SKILL_MCP_AUTOSTART_MODES, type SkillMcpAutostart } from '@talon/skills';
import { DEFAULT_TURN_LEASE_MS, MIN_LEASE_MS } from '@talon/agent';
import type { ScopedRateLimit } from '@talon/tool-runtime';
import { parseDatabaseConfig, PGLITE_IN_MEMORY, type DatabaseConfig } from '@talon/persistence';
import {
  InvalidConfigError,
  parseServiceConfig,
  readPositiveInt,
  type ServiceConfig,
} from '@talon/service-runtime';

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
   * Lease of a running turn (and of a pending approval's continuation), renewed every third; a dead
   * orchestrator's turn is taken over by another about this long after it died. Default 10000 ms, at
   * least 300 (env `TALON_TURN_LEASE_MS`).
   */
  turnLeaseMs: number;
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
  /**
   * MCP servers an active skill's declared tools come from: `trusted` starts them for Trusted skills before
   * the model is called and waits up to `waitMs` for their tools; `off` only offers `mcp_start` (env
   * `TALON_SKILL_MCP_AUTOSTART` default `trusted`, `TALON_SKILL_MCP_START_WAIT_MS` default 10000).
   */
  skillMcpAutostart: { mode: SkillMcpAutostart; waitMs: number };
  /** Folder of `<id>.HAND.toml` files. Default `hands` in the working directory (env `TALON_HANDS_DIR`). */
  handsDir: string;
  /** IANA timezone schedules are read in when a call names none. Default the host's, else UTC (env `TALON_TIMEZONE`). */
  timezone: string;
  /** The front door: tokens, Host/Origin rules and TLS of the HTTP and gRPC surfaces. */
  auth: FrontDoorConfig;
  /** The web console's built files, served at `/` (env `TALON_CONSOLE_DIR`, default `<root>/apps/console/dist`). */
  consoleDir: string;
  /**
   * Operator rate limits by tool name, replacing a tool's declared limit (env `TALON_RATE_LIMITS`, JSON:
   * `{"web_fetch": {"calls": 60, "perMs": 60000, "scope": "session"}}`; scope `session` (default) counts
   * each session apart, `tool` counts every call of the tool). On PostgreSQL every limit is shared by all
   * orchestrators. Default: none.
   */
  rateLimits: ReadonlyMap<string, ScopedRateLimit>;
  /**
   * Where a call's audit record is made durable before the call is answered (env `TALON_AUDIT_OUTBOX`):
   * `journal` (the default on PGlite with a data directory) appends it to a journal in the data directory,
   * which this orchestrator drains into the chain in statements of many rows; `off` (the default on
   * PostgreSQL and on PGlite in memory) commits it to the database, grouped with the records of concurrent
   * calls; `jetstream` publishes it to the JetStream outbox stream, which orchestrators drain into the
   * database (more work per call for NATS and the orchestrator: see docs/security.md).
   */
  auditOutbox: AuditOutboxConfig;
  /** The database (env `DATABASE_URL`, `TALON_PGLITE_DIR`, `TALON_STATE_DIR`, `TALON_PGLITE_SHARED_BUFFERS`). */
  database: DatabaseConfig;
  /** Jobs and routines (issue 13). */
  autonomy: {
    /** Scheduler tick. Default 250 ms (env `TALON_SCHEDULER_TICK_MS`). */
    schedulerTickMs: number;
    /**
     * Longest scheduler wait while no slot comes due sooner (a routine changed here wakes it at once, one
     * whose orchestrator died is fired at most this late), and the job queue's poll while this
     * orchestrator runs no job and found none (enqueues wake every runner). Default 2000 ms (env
     * `TALON_SCHEDULER_IDLE_TICK_MS`; never below the tick).
     */
    schedulerIdleTickMs: number;
    /** Lease of a running job, renewed every third. Default 15000 ms (env `TALON_JOB_LEASE_MS`). */
    jobLeaseMs: number;
    /** Jobs run at once by one orchestrator. Default 8 (env `TALON_JOB_CONCURRENCY`). */
    jobConcurrency: number;
    /** How often skill triggers are synced into routines. Default 5000 ms (env `TALON_SKILL_ROUTINES_SYNC_MS`). */
    skillRoutinesSyncMs: number;
    /** How often hand triggers are synced into routines. Default 5000 ms (env `TALON_HAND_ROUTINES_SYNC_MS`). */
    handRoutinesSyncMs: number;
  };
}

/** How callers are let in. */
export interface FrontDoorConfig {
  /**
   * False only with `TALON_AUTH=off`, for local experiments: every call is then an operator call, which
   * the orchestrator logs loudly at start. Default true.
   */
  enabled: boolean;
  /** The first operator token, set by the deployment (env `TALON_BOOTSTRAP_TOKEN`); else one is generated into the state dir. */
  bootstrapToken?: string;
  /** `Host` headers HTTP accepts (env `TALON_HTTP_ALLOWED_HOSTS`, comma-separated `host[:port]`). Default: loopback names and the listen address, with the HTTP port. */
  allowedHosts: string[];
  /** Origins whose pages may call the API (env `TALON_HTTP_ALLOWED_ORIGINS`); CORS headers only for these. Default none. */
  allowedOrigins: string[];
  /** How long a verified token is trusted before it is looked up again (bounds revocation delay). Default 500 ms (env `TALON_TOKEN_CACHE_MS`, at most 1000). */
  tokenCacheMs: number;
  /** TLS of the HTTP API: PEM files (env `TALON_HTTP_TLS_CERT`, `TALON_HTTP_TLS_KEY`). Default off. */
  httpTls?: { certFile: string; keyFile: string };
  /** TLS of the gRPC API: PEM files (env `TALON_GRPC_TLS_CERT`, `TALON_GRPC_TLS_KEY`). Default off. */
  grpcTls?: { certFile: string; keyFile: string };
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function tlsPair(env: NodeJS.ProcessEnv, prefix: string): { certFile: string; keyFile: string } | undefined {
  const certFile = env[`${prefix}_CERT`];
  const keyFile = env[`${prefix}_KEY`];
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile)
    throw new InvalidConfigError(`${prefix}_CERT`, certFile ?? '', `set together with ${prefix}_KEY`);
  return { certFile, keyFile };
}

/** Reads the front door settings; `httpHost`/`httpPort` give the default allowed hosts. */
export function parseFrontDoorConfig(
  env: NodeJS.ProcessEnv,
  http: { host: string; port: number },
): FrontDoorConfig {
  const authSwitch = (env.TALON_AUTH ?? 'on').toLowerCase();
  if (!['on', 'off'].includes(authSwitch))
    throw new InvalidConfigError('TALON_AUTH', env.TALON_AUTH ?? '', 'on | off');
  const bootstrapToken = env.TALON_BOOTSTRAP_TOKEN?.trim() || undefined;
  if (bootstrapToken && !looksLikeApiToken(bootstrapToken))
    throw new InvalidConfigError(
      'TALON_BOOTSTRAP_TOKEN',
      '(hidden)',
      'at least 32 printable characters (e.g. `openssl rand -base64 32`)',
    );
  const defaults = ['127.0.0.1', 'localhost', '[::1]'];
  if (!WILDCARD_HOSTS.has(http.host) && !defaults.includes(http.host))
    defaults.push(http.host.includes(':') ? `[${http.host}]` : http.host);
  const configuredHosts = list(env.TALON_HTTP_ALLOWED_HOSTS ?? env.TALON_MCP_ALLOWED_HOSTS);
  const allowedOrigins = list(env.TALON_HTTP_ALLOWED_ORIGINS);
  for (const origin of allowedOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin))
      throw new InvalidConfigError(
        'TALON_HTTP_ALLOWED_ORIGINS',
        origin,
        'origins like https://console.example.com (scheme, host, optional port; no path)',
      );
  }
  const tokenCacheMs = readPositiveInt(env, 'TALON_TOKEN_CACHE_MS', DEFAULT_TOKEN_CACHE_MS);
  if (tokenCacheMs > 1000)
    throw new InvalidConfigError(
      'TALON_TOKEN_CACHE_MS',
      String(tokenCacheMs),
      'at most 1000 (revocation must take effect within a second)',
    );
  const httpTls = tlsPair(env, 'TALON_HTTP_TLS');
  const grpcTls = tlsPair(env, 'TALON_GRPC_TLS');
  return {
    enabled: authSwitch === 'on',
    ...(bootstrapToken ? { bootstrapToken } : {}),
    allowedHosts: configuredHosts.length ? configuredHosts : defaults.map((host) => `${host}:${http.port}`),
    allowedOrigins,
    tokenCacheMs,
    ...(httpTls ? { httpTls } : {}),
    ...(grpcTls ? { grpcTls } : {}),
  };
}

/** The install root (holds `registry/`), found from this file in `apps/orchestrator/dist/config`. */
const INSTALL_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export const DEFAULT_HTTP_PORT = 8080;
export const DEFAULT_GRPC_PORT = 50051;

export function parseOrchestratorConfig(env: NodeJS.ProcessEnv = process.env): OrchestratorConfig {
  const http = {
    host: env.TALON_HTTP_HOST || '127.0.0.1',
    port: readPositiveInt(env, 'TALON_HTTP_PORT', DEFAULT_HTTP_PORT),
  };
  const database = parseDatabaseConfig(env);
  return {
    ...parseServiceConfig('orchestrator', env),
    http,
    auth: parseFrontDoorConfig(env, http),
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
    turnLeaseMs: readLeaseMs(env, 'TALON_TURN_LEASE_MS', DEFAULT_TURN_LEASE_MS),
    handsDir: resolve(env.TALON_HANDS_DIR || 'hands'),
    rateLimits: readRateLimits(env),
    auditOutbox: readAuditOutbox(env, database),
    database,
    timezone: readTimezone(env),
    toolRegistry: toolRegistryOf(env),
    consoleDir: resolve(
      env.TALON_CONSOLE_DIR || resolve(env.TALON_ROOT || INSTALL_ROOT, 'apps/console/dist'),
    ),
    skillTasks: {
      maxDepth: readPositiveInt(env, 'TALON_SKILL_TASK_MAX_DEPTH', 3),
      maxIterations: readPositiveInt(env, 'TALON_SKILL_TASK_MAX_ITERATIONS', 4),
      timeoutMs: readPositiveInt(env, 'TALON_SKILL_TASK_TIMEOUT_MS', 120_000),
      maxTokens: readPositiveInt(env, 'TALON_SKILL_TASK_MAX_TOKENS', 50_000),
    },
    skillMcpAutostart: {
      mode: readSkillMcpAutostart(env),
      waitMs: readPositiveInt(env, 'TALON_SKILL_MCP_START_WAIT_MS', 10_000),
    },
    autonomy: {
      schedulerTickMs: readPositiveInt(env, 'TALON_SCHEDULER_TICK_MS', 250),
      schedulerIdleTickMs: readPositiveInt(env, 'TALON_SCHEDULER_IDLE_TICK_MS', 2_000),
      jobLeaseMs: readLeaseMs(env, 'TALON_JOB_LEASE_MS', 15_000),
      jobConcurrency: readPositiveInt(env, 'TALON_JOB_CONCURRENCY', 8),
      skillRoutinesSyncMs: readPositiveInt(env, 'TALON_SKILL_ROUTINES_SYNC_MS', 5_000),
      handRoutinesSyncMs: readPositiveInt(env, 'TALON_HAND_ROUTINES_SYNC_MS', 5_000),
    },
  };
}

/** Where audit records are made durable before a call is answered. */
export const AUDIT_OUTBOX_MODES = ['off', 'journal', 'jetstream'] as const;
export type AuditOutboxMode = (typeof AUDIT_OUTBOX_MODES)[number];
/** The audit outbox and, for the journal, its folder (in the PGlite data directory). */
export type AuditOutboxConfig = { mode: 'off' | 'jetstream' } | { mode: 'journal'; dir: string };

/** The journal's folder inside the PGlite data directory, whose lock makes this orchestrator its one owner. */
export const AUDIT_JOURNAL_FOLDER = 'talon-audit-journal';

function readAuditOutbox(env: NodeJS.ProcessEnv, database: DatabaseConfig): AuditOutboxConfig {
  // The journal needs a folder one orchestrator owns: PGlite's data directory (locked by its process).
  const journalDir =
    database.kind === 'pglite' && database.dataDir !== PGLITE_IN_MEMORY
      ? join(database.dataDir, AUDIT_JOURNAL_FOLDER)
      : undefined;
  const value = (env.TALON_AUDIT_OUTBOX || (journalDir ? 'journal' : 'off')).toLowerCase();
  if (!(AUDIT_OUTBOX_MODES as readonly string[]).includes(value))
    throw new InvalidConfigError(
      'TALON_AUDIT_OUTBOX',
      env.TALON_AUDIT_OUTBOX ?? '',
      'off (commit each record to the database), journal (PGlite with a data directory) or jetstream (the JetStream outbox)',
    );
  if (value !== 'journal') return { mode: value as 'off' | 'jetstream' };
  if (!journalDir)
    throw new InvalidConfigError(
      'TALON_AUDIT_OUTBOX',
      env.TALON_AUDIT_OUTBOX ?? '',
      'off or jetstream: the journal lives in the data directory of PGlite, which one orchestrator owns (not PostgreSQL, not memory://)',
    );
  return { mode: 'journal', dir: journalDir };
}

function readSkillMcpAutostart(env: NodeJS.ProcessEnv): SkillMcpAutostart {
  const value = env.TALON_SKILL_MCP_AUTOSTART || 'trusted';
  if (!(SKILL_MCP_AUTOSTART_MODES as readonly string[]).includes(value))
    throw new InvalidConfigError(
      'TALON_SKILL_MCP_AUTOSTART',
      value,
      `one of ${SKILL_MCP_AUTOSTART_MODES.join(', ')} (trusted starts the MCP servers Trusted skills need)`,
    );
  return value as SkillMcpAutostart;
}

function toolRegistryOf(env: NodeJS.ProcessEnv): OrchestratorConfig['toolRegistry'] {
  const root = resolve(env.TALON_ROOT || INSTALL_ROOT);
  const registry = resolve(env.TALON_TOOL_REGISTRY_DIR || resolve(root, 'registry'));
  return {
    toolsDir: resolve(registry, 'tools'),
    mcpServersDir: resolve(env.TALON_MCP_REGISTRY_DIR || resolve(root, 'registry', 'mcp-servers')),
  };
}

/** A lease length: a whole number of ms, long enough for renewals to reach the database. */
function readLeaseMs(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = readPositiveInt(env, name, fallback);
  if (value < MIN_LEASE_MS)
    throw new InvalidConfigError(name, String(value), `at least ${MIN_LEASE_MS} (milliseconds)`);
  return value;
}

function readTimezone(env: NodeJS.ProcessEnv): string {
  const zone = env.TALON_TIMEZONE || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  if (!IANAZone.isValidZone(zone))
    throw new InvalidConfigError('TALON_TIMEZONE', zone, 'an IANA timezone such as "Asia/Shanghai" or "UTC"');
  return zone;
}

const RATE_LIMITS_EXPECTED =
  'a JSON object of tool name to {"calls": <positive integer>, "perMs": <positive integer>, "scope": "session" | "tool"}';

function readRateLimits(env: NodeJS.ProcessEnv): ReadonlyMap<string, ScopedRateLimit> {
  const raw = env.TALON_RATE_LIMITS?.trim();
  const rules = new Map<string, ScopedRateLimit>();
  if (!raw) return rules;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new InvalidConfigError('TALON_RATE_LIMITS', raw, RATE_LIMITS_EXPECTED);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new InvalidConfigError('TALON_RATE_LIMITS', raw, RATE_LIMITS_EXPECTED);
  const positive = (value: unknown) => Number.isInteger(value) && (value as number) >= 1;
  for (const [tool, rule] of Object.entries(parsed as Record<string, unknown>)) {
    const { calls, perMs, scope = 'session', ...rest } = (rule ?? {}) as Record<string, unknown>;
    if (
      !/^[a-zA-Z0-9_-]{1,64}$/.test(tool) ||
      !positive(calls) ||
      !positive(perMs) ||
      (scope !== 'session' && scope !== 'tool') ||
      Object.keys(rest).length > 0
    )
      throw new InvalidConfigError(
        `TALON_RATE_LIMITS (tool "${tool}")`,
        JSON.stringify(rule),
        RATE_LIMITS_EXPECTED,
      );
    rules.set(tool, { calls: calls as number, perMs: perMs as number, scope });
  }
  return rules;
}
