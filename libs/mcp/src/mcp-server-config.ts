import type { Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  McpServerConfigSchema,
  type SseTransportConfigSchema,
  type StdioTransportConfigSchema,
  type StreamableHttpTransportConfigSchema,
  type ApprovalRequirement,
  type McpDefinitionSource,
  type McpServerConfig,
  type SandboxProfile,
  type ToolEffect,
} from '@talon/contracts';
import { sandboxProfile } from '@talon/sandbox';
import { McpConfigError } from './errors/mcp-config-error.js';
import { expandConfigVariables, type ConfigVariables } from './mcp-config-variables.js';

/** Defaults applied by {@link parseMcpServerConfig} when a definition leaves a field out. */
export const DEFAULT_MCP_EFFECTS: readonly ToolEffect[] = ['network', 'external_write'];
/** MCP tools may write to the outside world: a person approves unless auto-approval says otherwise. */
export const DEFAULT_MCP_APPROVAL: ApprovalRequirement = 'unless_auto_approved';
export const DEFAULT_MCP_CALL_TIMEOUT_MS = 30_000;
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 15_000;
/** Stdio servers stop after five idle minutes; 0 keeps them running. */
export const DEFAULT_MCP_IDLE_STOP_MS = 300_000;
export const DEFAULT_MCP_HEALTH_INTERVAL_MS = 30_000;
export const DEFAULT_MCP_RESTART = {
  maxRestarts: 5,
  windowMs: 300_000,
  initialDelayMs: 250,
  maxDelayMs: 30_000,
} as const;

// The schema of a written definition lives in `@talon/contracts` (it is also the `mcp.add` request).
export {
  McpAuthConfigSchema,
  McpSandboxConfigSchema,
  McpServerConfigSchema,
  SseTransportConfigSchema,
  StdioTransportConfigSchema,
  StreamableHttpTransportConfigSchema,
  type McpServerConfig,
} from '@talon/contracts';

export type StdioTransportConfig = Static<typeof StdioTransportConfigSchema>;
export type RemoteTransportConfig =
  Static<typeof StreamableHttpTransportConfigSchema> | Static<typeof SseTransportConfigSchema>;
export type McpTransportConfig = StdioTransportConfig | RemoteTransportConfig;
export type McpAuthConfig =
  | { type: 'none' }
  | { type: 'bearer'; secret: string }
  | { type: 'oauth'; clientName?: string; scopes?: string[] };

/** Restart limits: at most `maxRestarts` within `windowMs`, waiting `initialDelayMs·2ⁿ` up to `maxDelayMs`. */
export interface McpRestartPolicy {
  maxRestarts: number;
  windowMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/** A validated server definition with every default filled in and variables expanded. */
export interface McpServerDefinition {
  name: string;
  displayName: string;
  description: string;
  keywords: string[];
  transport: McpTransportConfig;
  auth: McpAuthConfig;
  effects: ToolEffect[];
  approval: ApprovalRequirement;
  callTimeoutMs: number;
  connectTimeoutMs: number;
  /** Idle time after which a stdio server is stopped; 0 never stops it. Remote servers ignore it. */
  idleStopMs: number;
  /** Interval of `ping` health checks; 0 disables them. */
  healthIntervalMs: number;
  restart: McpRestartPolicy;
  /** The sandbox profile of a stdio server (undefined for remote servers). */
  sandbox?: SandboxProfile;
  /** Where the definition comes from; `file` when unset. */
  source?: McpDefinitionSource;
}

/** Where a definition came from, used in error messages. */
export interface ParseMcpServerConfigOptions {
  /** Values for `${NAME}` placeholders (e.g. TALON_ROOT, TALON_WORKSPACE, TALON_DATA_DIR). */
  variables?: ConfigVariables;
  /** A file name or "user config", named in error messages. */
  source?: string;
}

/** Validates one raw definition, fills defaults and expands variables. Throws {@link McpConfigError}. */
export function parseMcpServerConfig(
  raw: unknown,
  options: ParseMcpServerConfigOptions = {},
): McpServerDefinition {
  const source = options.source ?? 'MCP server config';
  if (!Value.Check(McpServerConfigSchema, raw)) {
    const violations = [...Value.Errors(McpServerConfigSchema, raw)]
      .slice(0, 10)
      .map((e) => `${e.path || '/'}: ${e.message}`);
    throw new McpConfigError(
      `${source} is not a valid MCP server definition: ${violations.join('; ')}. Fix the file and reload.`,
      {
        details: { source, violations },
      },
    );
  }
  const config = raw as McpServerConfig;
  const expand = (value: string, field: string) =>
    expandConfigVariables(value, options.variables ?? {}, `${source} ${field}`);
  const restart = config.restart ?? {};
  const transport = expandTransport(config.transport, expand);
  return {
    name: config.name,
    displayName: config.display_name ?? config.name,
    description: config.description ?? '',
    keywords: config.keywords ?? [],
    transport,
    auth: toAuth(config.auth),
    effects: config.effects ? [...new Set(config.effects)] : [...DEFAULT_MCP_EFFECTS],
    approval: config.approval ?? DEFAULT_MCP_APPROVAL,
    callTimeoutMs: config.call_timeout_ms ?? DEFAULT_MCP_CALL_TIMEOUT_MS,
    connectTimeoutMs: config.connect_timeout_ms ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS,
    idleStopMs: config.idle_stop_ms ?? DEFAULT_MCP_IDLE_STOP_MS,
    healthIntervalMs: config.health_interval_ms ?? DEFAULT_MCP_HEALTH_INTERVAL_MS,
    restart: {
      maxRestarts: restart.max_restarts ?? DEFAULT_MCP_RESTART.maxRestarts,
      windowMs: restart.window_ms ?? DEFAULT_MCP_RESTART.windowMs,
      initialDelayMs: restart.initial_delay_ms ?? DEFAULT_MCP_RESTART.initialDelayMs,
      maxDelayMs: restart.max_delay_ms ?? DEFAULT_MCP_RESTART.maxDelayMs,
    },
    ...(transport.type === 'stdio' ? { sandbox: toSandboxProfile(config, source, expand) } : {}),
  };
}

function toSandboxProfile(
  config: McpServerConfig,
  source: string,
  expand: (value: string, field: string) => string,
): SandboxProfile {
  const sandbox = config.sandbox ?? {};
  const paths = (list: string[] | undefined, field: string) =>
    (list ?? []).map((path, index) => expand(path, `sandbox.${field}[${index}]`));
  const limits = sandbox.limits ?? {};
  try {
    return sandboxProfile({
      readPaths: paths(sandbox.read_paths, 'read_paths'),
      writePaths: paths(sandbox.write_paths, 'write_paths'),
      ...(sandbox.network_hosts && sandbox.network_hosts.length > 0
        ? { network: { mode: 'proxy', hosts: sandbox.network_hosts } }
        : {}),
      limits: {
        ...(limits.cpu_seconds === undefined ? {} : { cpuSeconds: limits.cpu_seconds }),
        ...(limits.address_space_bytes === undefined
          ? {}
          : { addressSpaceBytes: limits.address_space_bytes }),
        ...(limits.max_processes === undefined ? {} : { maxProcesses: limits.max_processes }),
        ...(limits.max_file_bytes === undefined ? {} : { maxFileBytes: limits.max_file_bytes }),
        ...(limits.max_open_files === undefined ? {} : { maxOpenFiles: limits.max_open_files }),
        ...(limits.tmp_bytes === undefined ? {} : { tmpBytes: limits.tmp_bytes }),
      },
    });
  } catch (error) {
    throw new McpConfigError(`${source}: ${(error as Error).message}`, {
      details: { source, server: config.name },
      cause: error,
    });
  }
}

function expandTransport(
  transport: McpServerConfig['transport'],
  expand: (value: string, field: string) => string,
): McpTransportConfig {
  const mapValues = (map: Record<string, string> | undefined, field: string) =>
    map &&
    Object.fromEntries(Object.entries(map).map(([key, value]) => [key, expand(value, `${field}.${key}`)]));
  if (transport.type === 'stdio') {
    return {
      type: 'stdio',
      command: expand(transport.command, 'transport.command'),
      args: (transport.args ?? []).map((arg, index) => expand(arg, `transport.args[${index}]`)),
      env: mapValues(transport.env, 'transport.env') ?? {},
      ...(transport.cwd === undefined ? {} : { cwd: expand(transport.cwd, 'transport.cwd') }),
    };
  }
  return {
    type: transport.type,
    url: expand(transport.url, 'transport.url'),
    headers: mapValues(transport.headers, 'transport.headers') ?? {},
  };
}

function toAuth(auth: McpServerConfig['auth']): McpAuthConfig {
  if (!auth || auth.type === 'none') return { type: 'none' };
  if (auth.type === 'bearer') return { type: 'bearer', secret: auth.secret };
  return { type: 'oauth', clientName: auth.client_name, scopes: auth.scopes };
}
