import { ATTR, inSpan, SpanKind } from '@talon/telemetry';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { McpCapabilityMissingError } from './errors/mcp-capability-missing-error.js';
import { McpServerUnavailableError } from './errors/mcp-server-unavailable-error.js';
import { McpJsonSchemaCompiler } from './mcp-json-schema-compiler.js';
import { toMcpCallError, toMcpConnectError } from './mcp-error-mapping.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import type { McpServerState, McpServerStatus } from './mcp-server-status.js';
import type { McpTransportHandle } from './mcp-transport.js';
import { restartDelayMs } from './restart-backoff.js';
import { StderrTail } from './stderr-tail.js';

export type { McpToolInfo };

/** Counts calls and starts over every connection, for a recency order that milliseconds cannot tie. */
let activityCount = 0;

/** Hooks and parts a connection needs; only `definition` and `createTransport` are required. */
export interface McpConnectionOptions {
  definition: McpServerDefinition;
  /** Builds a fresh transport for every (re)connect. */
  createTransport: () => Promise<McpTransportHandle>;
  /** Called with the full tool list after every (re)listing. */
  onToolsChanged?: (tools: readonly McpToolInfo[]) => void;
  /** Called after every state change. */
  onStateChanged?: (status: McpServerStatus) => void;
  /** Stderr lines kept for crash reports (default 50). */
  stderrLines?: number;
  /** Tools remembered from an earlier run, offered before the server is first started. */
  knownTools?: readonly McpToolInfo[];
  /** Name and version Talon announces to the server. */
  clientInfo?: { name: string; version: string };
}

/** Per-call options of {@link McpConnection.callTool}. */
export interface McpCallOptions {
  signal?: AbortSignal;
  /** Overrides the server's `callTimeoutMs`. */
  timeoutMs?: number;
}

const DEFAULT_CLIENT_INFO = { name: 'talon', version: '0.1.0' };

/**
 * One MCP server: connects through the SDK client, lists tools on start and again on
 * `notifications/tools/list_changed`, pings on an interval, and on a crash marks the server down
 * (last error, last stderr lines) and restarts it with exponential backoff within the restart limits.
 */
export class McpConnection {
  readonly definition: McpServerDefinition;
  private readonly stderr: StderrTail;
  private readonly schemas = new McpJsonSchemaCompiler();
  private client?: Client;
  private resourceListChanges = 0;
  private handle?: McpTransportHandle;
  private state: McpServerState = 'stopped';
  private toolList: readonly McpToolInfo[] = [];
  private connecting?: Promise<void>;
  private stopping = false;
  private lastError?: string;
  private restarts = 0;
  private restartTimes: number[] = [];
  private consecutiveFailures = 0;
  private restartTimer?: NodeJS.Timeout;
  private healthTimer?: NodeJS.Timeout;
  private nextRestartAt?: number;
  private startedAt?: number;
  private lastUsed = 0;
  /** Order of the last call or start among all connections: milliseconds tie when calls are quick. */
  private activity = 0;
  private active = 0;

  constructor(private readonly options: McpConnectionOptions) {
    this.definition = options.definition;
    this.stderr = new StderrTail(options.stderrLines);
    this.toolList = options.knownTools ?? [];
  }

  /** The tools as last listed by the server. */
  get tools(): readonly McpToolInfo[] {
    return this.toolList;
  }

  /**
   * Offers a tool list another replica listed (a shared snapshot) while this one has not started the
   * server: a running server's own list is never replaced. Returns whether the list was taken.
   */
  adoptTools(tools: readonly McpToolInfo[]): boolean {
    if (this.client || this.connecting) return false;
    this.toolList = tools;
    this.options.onToolsChanged?.(tools);
    return true;
  }

  private touch(): void {
    this.lastUsed = Date.now();
    this.activity = ++activityCount;
  }

  /** Rank of the last call or start among all connections, later is higher: for LRU eviction. */
  get activityOrder(): number {
    return this.activity;
  }

  /** Epoch ms of the last call or of the start, whichever is later: idle time counts from here. */
  get lastActivityAt(): number {
    return Math.max(this.lastUsed, this.startedAt ?? 0);
  }

  /** Calls in flight right now; a busy server is never stopped for idleness or room. */
  get inFlight(): number {
    return this.active;
  }

  /** Connects and lists tools. Idempotent; a down server is started now and its restart budget reset. */
  async start(): Promise<void> {
    if (this.state === 'running') return;
    if (this.connecting) return this.connecting;
    const recovering = this.state === 'down';
    this.clearRestartTimer();
    this.restartTimes = [];
    this.consecutiveFailures = 0;
    this.connecting = this.connect().finally(() => (this.connecting = undefined));
    // A call that finds a down server tries at once; if that fails, automatic restarts go on with backoff
    // (otherwise one call during an outage would end reconnection for good).
    if (recovering) {
      this.connecting.catch(() => {
        this.consecutiveFailures += 1;
        if (!this.stopping && !this.restartTimer) this.scheduleRestart();
      });
    }
    return this.connecting;
  }

  /** Disconnects on purpose (no restart). A stdio child gets stdin closed, then SIGTERM, then SIGKILL. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.clearRestartTimer();
    this.stopHealthChecks();
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    this.handle = undefined;
    if (client) {
      this.setState('stopping');
      await client.close().catch(() => undefined);
    }
    this.stopping = false;
    this.setState('stopped');
  }

  /** Calls one tool by its MCP name; starts the server first if it is not running. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Promise<CallToolResult> {
    this.touch();
    this.active += 1;
    try {
      if (this.state !== 'running') await this.start();
      const client = this.client;
      if (!client) throw this.unavailable('it stopped before the call could be sent');
      const timeoutMs = options.timeoutMs ?? this.definition.callTimeoutMs;
      try {
        return await inSpan(
          `tools/call ${name}`,
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'mcp.method.name': 'tools/call',
              [ATTR.genAiToolName]: name,
              [ATTR.mcpServer]: this.definition.name,
            },
          },
          async () =>
            (await client.callTool({ name, arguments: args }, undefined, {
              timeout: timeoutMs,
              ...(options.signal ? { signal: options.signal } : {}),
            })) as CallToolResult,
        );
      } catch (error) {
        throw toMcpCallError(error, {
          server: this.definition.name,
          tool: name,
          timeoutMs,
          stderr: this.stderr.snapshot(),
        });
      }
    } finally {
      this.active -= 1;
      this.touch();
    }
  }

  /**
   * Runs one read request (`resources/…`, `prompts/…`) on the live client; starts the server first if needed.
   * A server that does not advertise the capability gets {@link McpCapabilityMissingError}; other errors are
   * mapped like tool call errors, naming the operation.
   */
  async request<T>(
    operation: string,
    send: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>,
    options: McpCallOptions = {},
  ): Promise<T> {
    this.touch();
    this.active += 1;
    try {
      if (this.state !== 'running') await this.start();
      const client = this.client;
      if (!client) throw this.unavailable(`it stopped before ${operation} could be sent`);
      const capability = operation.startsWith('prompts/') ? 'prompts' : 'resources';
      if (!client.getServerCapabilities()?.[capability])
        throw new McpCapabilityMissingError(this.definition.name, capability);
      const timeoutMs = options.timeoutMs ?? this.definition.callTimeoutMs;
      try {
        return await send(client, {
          timeout: timeoutMs,
          ...(options.signal ? { signal: options.signal } : {}),
        });
      } catch (error) {
        throw toMcpCallError(error, {
          server: this.definition.name,
          tool: operation,
          timeoutMs,
          stderr: this.stderr.snapshot(),
        });
      }
    } finally {
      this.active -= 1;
      this.touch();
    }
  }

  /** Completes an OAuth authorization-code flow after a person approved it, then connects. */
  async finishAuthorization(authorizationCode: string): Promise<void> {
    const finish = this.handle?.finishAuth;
    if (!finish) throw this.unavailable('no authorization is pending for it');
    await finish(authorizationCode);
    this.handle = undefined;
    await this.start();
  }

  /** The connection's state alone: what a call checks, without building the whole {@link status}. */
  currentState(): McpServerState {
    return this.state;
  }

  /** A snapshot for `mcp_list`. */
  status(): McpServerStatus {
    return {
      name: this.definition.name,
      displayName: this.definition.displayName,
      transport: this.definition.transport.type,
      source: this.definition.source ?? 'file',
      state: this.state,
      toolCount: this.toolList.length,
      resourceListChanges: this.resourceListChanges,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
      lastStderr: this.stderr.snapshot().slice(-10),
      ...(this.handle?.pid() === undefined ? {} : { pid: this.handle.pid() }),
      restarts: this.restarts,
      ...(this.startedAt === undefined ? {} : { startedAt: new Date(this.startedAt).toISOString() }),
      ...(this.lastUsed === 0 ? {} : { lastUsedAt: new Date(this.lastUsed).toISOString() }),
      ...(this.nextRestartAt === undefined
        ? {}
        : { nextRestartAt: new Date(this.nextRestartAt).toISOString() }),
      ...(this.definition.sandbox ? { sandbox: this.definition.sandbox } : {}),
    };
  }

  private async connect(): Promise<void> {
    this.setState('starting');
    const client = new Client(this.options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: this.schemas,
    });
    try {
      const handle = await this.options.createTransport();
      this.handle = handle;
      if (handle.stderr) this.stderr.follow(handle.stderr);
      client.onclose = () => this.handleClose(client);
      client.onerror = (error) => (this.lastError = error.message);
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.relist(client));
      // Resource lists are read fresh on every request; a change is counted and shown in the status.
      client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
        if (client !== this.client) return;
        this.resourceListChanges += 1;
        this.emitStatus();
      });
      await client.connect(handle.transport, { timeout: this.definition.connectTimeoutMs });
      this.client = client;
      await this.listAllTools(client);
      this.startedAt = Date.now();
      this.activity = ++activityCount;
      this.lastError = undefined;
      this.consecutiveFailures = 0;
      this.setState('running');
      this.startHealthChecks(client);
    } catch (error) {
      this.client = undefined;
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      const authorizationUrl = this.handle?.authorizationUrl?.();
      const typed = toMcpConnectError(error, {
        server: this.definition.name,
        stderr: this.stderr.snapshot(),
        ...(authorizationUrl ? { authorizationUrl } : {}),
      });
      this.lastError = typed.message;
      this.setState('down');
      throw typed;
    }
  }

  private async listAllTools(client: Client): Promise<void> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : undefined, {
        timeout: this.definition.connectTimeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor && tools.length < 10_000);
    this.toolList = tools;
    this.options.onToolsChanged?.(tools);
  }

  private relist(client: Client): void {
    if (client !== this.client) return;
    this.listAllTools(client).catch((error: unknown) => {
      this.lastError = `re-listing tools after list_changed failed: ${(error as Error).message}`;
      this.emitStatus();
    });
  }

  private handleClose(client: Client): void {
    if (client !== this.client || this.stopping) return;
    this.client = undefined;
    this.stopHealthChecks();
    const tail = this.stderr.snapshot().slice(-5).join(' | ');
    this.lastError = `${this.lastError ? `${this.lastError}; ` : ''}server connection closed unexpectedly${tail ? ` (stderr: ${tail})` : ''}`;
    this.setState('down');
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const { maxRestarts, windowMs } = this.definition.restart;
    const now = Date.now();
    this.restartTimes = this.restartTimes.filter((time) => now - time < windowMs);
    if (this.restartTimes.length >= maxRestarts) {
      this.lastError = `${this.lastError ?? 'server down'}; restart limit reached (${maxRestarts} in ${windowMs} ms): start it again by hand`;
      this.nextRestartAt = undefined;
      this.emitStatus();
      return;
    }
    const delay = restartDelayMs(this.definition.restart, this.consecutiveFailures);
    this.nextRestartAt = now + delay;
    this.emitStatus();
    this.restartTimer = setTimeout(() => void this.restartNow(), delay);
    this.restartTimer.unref();
  }

  private async restartNow(): Promise<void> {
    this.restartTimer = undefined;
    this.nextRestartAt = undefined;
    if (this.connecting || this.state === 'running') return;
    this.restarts += 1;
    this.restartTimes.push(Date.now());
    this.connecting = this.connect().finally(() => (this.connecting = undefined));
    try {
      await this.connecting;
    } catch {
      this.consecutiveFailures += 1;
      this.scheduleRestart();
    }
  }

  private startHealthChecks(client: Client): void {
    const interval = this.definition.healthIntervalMs;
    if (interval <= 0) return;
    this.healthTimer = setInterval(() => {
      if (client !== this.client) return;
      client.ping({ timeout: Math.min(interval, 10_000) }).catch((error: unknown) => {
        if (client !== this.client) return;
        this.lastError = `health check failed: ${(error as Error).message}`;
        // A hung child may take seconds to die (SIGTERM, then SIGKILL): mark it down and restart now.
        this.handleClose(client);
        void client.close().catch(() => undefined);
      });
    }, interval);
    this.healthTimer.unref();
  }

  private stopHealthChecks(): void {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = undefined;
  }

  private clearRestartTimer(): void {
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.nextRestartAt = undefined;
  }

  private unavailable(why: string): McpServerUnavailableError {
    return new McpServerUnavailableError(
      `MCP server "${this.definition.name}" is not available: ${why}. Check mcp_list and start it again.`,
      {
        retryable: true,
        details: {
          server: this.definition.name,
          lastError: this.lastError,
          stderr: this.stderr.snapshot().slice(-10),
        },
      },
    );
  }

  private setState(state: McpServerState): void {
    this.state = state;
    if (state !== 'running')
      this.startedAt = state === 'down' || state === 'stopped' ? undefined : this.startedAt;
    this.emitStatus();
  }

  private emitStatus(): void {
    this.options.onStateChanged?.(this.status());
  }
}
