import { talonMetrics } from '@talon/telemetry';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  McpPromptGetReply,
  McpPromptListReply,
  McpResourceListReply,
  McpResourceReadReply,
} from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import { McpServerUnavailableError } from './errors/mcp-server-unavailable-error.js';
import { McpUnknownServerError } from './errors/mcp-unknown-server-error.js';
import { McpUnusableToolError } from './errors/mcp-unusable-tool-error.js';
import { McpUnknownToolError } from './errors/mcp-unknown-tool-error.js';
import { McpConnection, type McpCallOptions, type McpToolInfo } from './mcp-connection.js';
import { McpJsonSchemaCompiler } from './mcp-json-schema-compiler.js';
import { mapPromptGet, mapPromptList, mapResourceList, mapResourceRead } from './mcp-resources-prompts.js';
import { mapMcpToolResult, type MapMcpToolResultOptions, type McpToolOutput } from './mcp-result-mapper.js';
import type { McpServerDefinition } from './mcp-server-config.js';
import type { McpServerListing, McpServerStatus } from './mcp-server-status.js';
import { adaptMcpTool, type UnusableMcpTool } from './mcp-tool-adapter.js';
import { assignMcpToolNames } from './mcp-tool-name.js';
import type { McpTransportHandle } from './mcp-transport.js';
import { createMcpTransport, type McpTransportFactoryOptions } from './mcp-transport-factory.js';

/** Default cap on stdio servers running at once. */
export const DEFAULT_MAX_RUNNING_STDIO = 8;
/** Default period of the idle sweep. */
export const DEFAULT_IDLE_SWEEP_MS = 1_000;

/** Options of {@link McpManager}; only `servers` is required. */
export interface McpManagerOptions extends McpTransportFactoryOptions {
  servers: readonly McpServerDefinition[];
  /** At most this many stdio servers run at once; the least recently used idle one is stopped to make room. */
  maxRunningStdio?: number;
  /** How often idle stdio servers are looked for (default 1 s). */
  idleSweepMs?: number;
  /** Replaces the transport factory (tests, or a wasm-runner that spawns differently). */
  createTransport?: (definition: McpServerDefinition) => Promise<McpTransportHandle>;
  /**
   * Tool lists remembered from an earlier run (see {@link McpManager.toolSnapshot}), by server name: their
   * tools are offered at once and the server starts on the first call, so boot starts nothing.
   */
  knownTools?: Readonly<Record<string, readonly McpToolInfo[]>>;
  /** Called when the set of adapted tools changes (start, list_changed, restart). */
  onToolsChanged?: (tools: readonly Tool[], unusable: readonly UnusableMcpTool[]) => void;
  onStatusChanged?: (status: McpServerStatus) => void;
  result?: MapMcpToolResultOptions;
}

/**
 * Many MCP servers: start/stop/list/call. Stdio servers start on first use, stop when idle for their
 * `idleStopMs`, and at most `maxRunningStdio` run at once. Tools stay in the catalog across an idle stop
 * (they were listed once), so a later call starts the server again.
 */
export class McpManager {
  private readonly connections = new Map<string, McpConnection>();
  private readonly schemas = new McpJsonSchemaCompiler();
  private readonly maxRunningStdio: number;
  private readonly sweep: NodeJS.Timeout;
  private adapted: Tool[] = [];
  private unusable: UnusableMcpTool[] = [];
  private starting = new Map<string, Promise<void>>();

  constructor(private readonly options: McpManagerOptions) {
    this.maxRunningStdio = options.maxRunningStdio ?? DEFAULT_MAX_RUNNING_STDIO;
    for (const definition of options.servers)
      this.connections.set(definition.name, this.connect(definition, options.knownTools?.[definition.name]));
    if (options.knownTools) this.rebuildTools();
    talonMetrics().mcpServers.observe(() => {
      const byState: Record<string, number> = {};
      for (const connection of this.connections.values()) {
        const state = connection.currentState();
        byState[state] = (byState[state] ?? 0) + 1;
      }
      return byState;
    });
    this.sweep = setInterval(() => void this.stopIdle(), options.idleSweepMs ?? DEFAULT_IDLE_SWEEP_MS);
    this.sweep.unref();
  }

  /**
   * Makes the configured servers equal to `definitions` (servers added or removed at run time): new ones
   * are configured (with `knownTools` when given), vanished ones stopped and dropped, changed ones stopped
   * and configured again. A server whose definition is unchanged keeps running. Resolves once the stopped
   * servers are down; the tools are rebuilt once.
   */
  async setServers(
    definitions: readonly McpServerDefinition[],
    knownTools: Readonly<Record<string, readonly McpToolInfo[]>> = {},
  ): Promise<void> {
    const next = new Map(definitions.map((definition) => [definition.name, definition]));
    const stopping: Promise<unknown>[] = [];
    for (const [name, connection] of [...this.connections]) {
      const wanted = next.get(name);
      if (wanted && sameDefinition(wanted, connection.definition)) continue;
      this.connections.delete(name);
      stopping.push(connection.stop().catch(() => undefined));
    }
    for (const [name, definition] of next) {
      if (this.connections.has(name)) continue;
      this.connections.set(name, this.connect(definition, knownTools[name]));
    }
    this.rebuildTools();
    await Promise.all(stopping);
  }

  /**
   * Offers a tool list listed elsewhere (a shared snapshot) for a server this manager has not started;
   * ignored for a running server or an unknown name. Returns whether it was taken.
   */
  adoptTools(server: string, tools: readonly McpToolInfo[]): boolean {
    return this.connections.get(server)?.adoptTools(tools) ?? false;
  }

  /** Starts a server (making room under the stdio cap) and returns its status. */
  async start(server: string): Promise<McpServerStatus> {
    const connection = this.connection(server);
    await this.ensureStarted(connection);
    return connection.status();
  }

  /** Stops a server on purpose; its tools stay listed. */
  async stop(server: string): Promise<McpServerStatus> {
    const connection = this.connection(server);
    await connection.stop();
    return connection.status();
  }

  /** Starts every server once so their tools are listed; failures are reported in the returned statuses. */
  async discover(): Promise<McpServerListing[]> {
    for (const connection of this.connections.values())
      await this.ensureStarted(connection).catch(() => undefined);
    return this.list();
  }

  /** Completes a pending OAuth authorization with the code from the callback, then connects. */
  async finishAuthorization(server: string, authorizationCode: string): Promise<McpServerStatus> {
    const connection = this.connection(server);
    await connection.finishAuthorization(authorizationCode);
    return connection.status();
  }

  /** Status of every server with its tool names and unusable tools. */
  list(): McpServerListing[] {
    return [...this.connections.values()].map((connection) => ({
      ...connection.status(),
      tools: connection.tools.map((tool) => tool.name),
      unusableTools: this.unusable.filter((entry) => entry.server === connection.definition.name),
    }));
  }

  /** The definition a server was configured with. */
  definitionOf(server: string): McpServerDefinition {
    return this.connection(server).definition;
  }

  /** Every usable MCP tool as a Talon {@link Tool}, named `server_tool` (see assignMcpToolNames). */
  tools(): readonly Tool[] {
    return this.adapted;
  }

  /** Every server's last tool list, to persist and pass back as `knownTools` after a restart. */
  toolSnapshot(): Record<string, McpToolInfo[]> {
    const snapshot: Record<string, McpToolInfo[]> = {};
    for (const [name, connection] of this.connections)
      if (connection.tools.length > 0) snapshot[name] = [...connection.tools];
    return snapshot;
  }

  /** Tools that were listed but cannot be offered (e.g. an invalid input schema), with reasons. */
  unusableTools(): readonly UnusableMcpTool[] {
    return this.unusable;
  }

  /** Raw call by server and MCP tool name (starts the server on first use). No input validation here. */
  async callTool(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Promise<CallToolResult> {
    const connection = this.connection(server);
    await this.ensureStarted(connection);
    return connection.callTool(tool, args, options);
  }

  /**
   * `mcp_call`: calls `server.tool` through its adapted Tool, so input validation, result mapping and
   * `isError` handling are the same as for the model's calls.
   */
  async call(
    displayName: string,
    args: Record<string, unknown>,
    options: McpCallOptions = {},
  ): Promise<McpToolOutput> {
    const dot = displayName.indexOf('.');
    const server = dot > 0 ? displayName.slice(0, dot) : displayName;
    const connection = this.connection(server);
    const find = () => this.adapted.find((candidate) => candidate.definition.displayName === displayName);
    // First use: the server has never listed its tools, so start it and look again.
    if (!find() && connection.currentState() !== 'running') await this.ensureStarted(connection);
    const tool = find();
    if (!tool) {
      const unusable = this.unusable.find((entry) => entry.displayName === displayName);
      if (unusable)
        throw new McpUnusableToolError(
          `MCP tool ${displayName} cannot be used: ${unusable.reason}. Ask the server's author to fix it.`,
          { details: unusable },
        );
      throw new McpUnknownToolError(
        `No MCP tool named ${displayName}; run mcp_list (or start the server) to see its tools.`,
        {
          details: { tool: displayName },
        },
      );
    }
    const signal = options.signal ?? new AbortController().signal;
    return (await tool.execute(args, {
      callId: `mcp-call-${Date.now()}`,
      signal,
      grants: [],
      log: () => undefined,
    })) as McpToolOutput;
  }

  /** `resources/list` of one server (one page); starts the server on first use. */
  async listResources(
    server: string,
    cursor?: string,
    options: McpCallOptions = {},
  ): Promise<McpResourceListReply> {
    const connection = this.connection(server);
    await this.ensureStarted(connection);
    const result = await connection.request(
      'resources/list',
      (client, request) => client.listResources(cursor ? { cursor } : undefined, request),
      options,
    );
    return mapResourceList(server, result);
  }

  /** `resources/read` of one resource. Read-only: nothing on the server changes. */
  async readResource(
    server: string,
    uri: string,
    options: McpCallOptions = {},
  ): Promise<McpResourceReadReply> {
    const connection = this.connection(server);
    await this.ensureStarted(connection);
    const result = await connection.request(
      'resources/read',
      (client, request) => client.readResource({ uri }, request),
      options,
    );
    return mapResourceRead(server, uri, result, this.options.result);
  }

  /** `prompts/list` of one server (one page). */
  async listPrompts(
    server: string,
    cursor?: string,
    options: McpCallOptions = {},
  ): Promise<McpPromptListReply> {
    const connection = this.connection(server);
    await this.ensureStarted(connection);
    const result = await connection.request(
      'prompts/list',
      (client, request) => client.listPrompts(cursor ? { cursor } : undefined, request),
      options,
    );
    return mapPromptList(server, result);
  }

  /** `prompts/get`: a prompt rendered by the server with its arguments, usable as a skill-like template. */
  async getPrompt(
    server: string,
    name: string,
    args: Record<string, string> = {},
    options: McpCallOptions = {},
  ): Promise<McpPromptGetReply> {
    const connection = this.connection(server);
    await this.ensureStarted(connection);
    const result = await connection.request(
      'prompts/get',
      (client, request) => client.getPrompt({ name, arguments: args }, request),
      options,
    );
    return mapPromptGet(server, name, result, this.options.result);
  }

  /** Maps a raw result the same way tools do (for callers of {@link callTool}). */
  mapResult(result: CallToolResult): McpToolOutput {
    return mapMcpToolResult(result, this.options.result);
  }

  /** Stops every server and the idle sweep. */
  async close(): Promise<void> {
    clearInterval(this.sweep);
    await Promise.all([...this.connections.values()].map((connection) => connection.stop()));
  }

  private connect(definition: McpServerDefinition, knownTools?: readonly McpToolInfo[]): McpConnection {
    const create =
      this.options.createTransport ??
      ((server: McpServerDefinition) => createMcpTransport(server, this.options));
    const connection: McpConnection = new McpConnection({
      definition,
      createTransport: () => create(definition),
      // A connection dropped by setServers may still report while it stops; only configured ones count.
      onToolsChanged: () => {
        if (this.connections.get(definition.name) === connection) this.rebuildTools();
      },
      ...(knownTools ? { knownTools } : {}),
      ...(this.options.onStatusChanged ? { onStateChanged: this.options.onStatusChanged } : {}),
    });
    return connection;
  }

  private connection(server: string): McpConnection {
    const connection = this.connections.get(server);
    if (!connection) {
      throw new McpUnknownServerError(
        `No MCP server named "${server}"; configured: ${[...this.connections.keys()].join(', ') || 'none'}.`,
        {
          details: { server },
        },
      );
    }
    return connection;
  }

  private async ensureStarted(connection: McpConnection): Promise<void> {
    if (connection.currentState() === 'running') return;
    const name = connection.definition.name;
    const pending = this.starting.get(name);
    if (pending) return pending;
    const start = (async () => {
      if (connection.definition.transport.type === 'stdio') await this.makeRoom(connection);
      await connection.start();
    })().finally(() => this.starting.delete(name));
    this.starting.set(name, start);
    return start;
  }

  /** Stops the least recently used idle stdio server when the cap is reached. */
  private async makeRoom(incoming: McpConnection): Promise<void> {
    const running = [...this.connections.values()].filter(
      (connection) =>
        connection !== incoming && connection.definition.transport.type === 'stdio' && isLive(connection),
    );
    const reserved = [...this.starting.keys()].filter((name) => name !== incoming.definition.name).length;
    if (running.length + reserved < this.maxRunningStdio) return;
    const idle = running
      .filter((connection) => connection.inFlight === 0)
      .sort((a, b) => a.activityOrder - b.activityOrder);
    const victim = idle[0];
    if (!victim) {
      throw new McpServerUnavailableError(
        `Cannot start MCP server "${incoming.definition.name}": all ${this.maxRunningStdio} stdio server slots are busy. Retry when a call finishes.`,
        {
          retryable: true,
          details: { server: incoming.definition.name, maxRunningStdio: this.maxRunningStdio },
        },
      );
    }
    await victim.stop();
  }

  private async stopIdle(): Promise<void> {
    const now = Date.now();
    for (const connection of this.connections.values()) {
      const { idleStopMs, transport } = connection.definition;
      if (transport.type !== 'stdio' || idleStopMs <= 0 || connection.inFlight > 0) continue;
      if (connection.currentState() !== 'running' || this.starting.has(connection.definition.name)) continue;
      if (now - connection.lastActivityAt >= idleStopMs) await connection.stop().catch(() => undefined);
    }
  }

  private rebuildTools(): void {
    const listed: { definition: McpServerDefinition; tool: McpToolInfo }[] = [];
    for (const connection of this.connections.values()) {
      for (const tool of connection.tools) listed.push({ definition: connection.definition, tool });
    }
    const names = assignMcpToolNames(
      listed.map(({ definition, tool }) => ({ server: definition.name, tool: tool.name })),
    );
    const tools: Tool[] = [];
    const unusable: UnusableMcpTool[] = [];
    const seen = new Set<string>();
    for (const { definition, tool } of listed) {
      const assigned = names.get(`${definition.name}.${tool.name}`);
      // A server listing the same tool name twice gets it offered once.
      if (!assigned || seen.has(assigned.displayName)) continue;
      seen.add(assigned.displayName);
      const adapted = adaptMcpTool({
        server: definition,
        tool,
        names: assigned,
        schemas: this.schemas,
        call: (server, name, args, options) => this.callTool(server, name, args, options),
        ...(this.options.result ? { result: this.options.result } : {}),
      });
      if (adapted.ok) tools.push(adapted.tool as Tool);
      else unusable.push(adapted.unusable);
    }
    this.adapted = tools;
    this.unusable = unusable;
    this.options.onToolsChanged?.(tools, unusable);
  }
}

function sameDefinition(a: McpServerDefinition, b: McpServerDefinition): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function isLive(connection: McpConnection): boolean {
  const state = connection.currentState();
  return state === 'running' || state === 'starting';
}
