import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createTalonMcpServer, type TalonMcpServerOptions } from './talon-mcp-server.js';

/** Defaults of {@link TalonMcpHttpOptions}. */
export const DEFAULT_TALON_MCP_PATH = '/mcp';
export const DEFAULT_MAX_MCP_SESSIONS = 100;
export const DEFAULT_MAX_MCP_BODY_BYTES = 4 * 1024 * 1024;
/** Sessions with no request for this long are closed (clients often vanish without DELETE). */
export const DEFAULT_MCP_SESSION_IDLE_MS = 10 * 60_000;

/** Options of the streamable HTTP surface. */
export interface TalonMcpHttpOptions extends TalonMcpServerOptions {
  /** The path served (default `/mcp`); other paths get 404 so the handler can share a server. */
  path?: string;
  /** Concurrent MCP sessions (default 100); a new session past the cap gets 503. */
  maxSessions?: number;
  /** Largest request body (default 4 MiB). */
  maxBodyBytes?: number;
  /** Idle time after which a session is closed (default 10 minutes). */
  sessionIdleMs?: number;
  /** Host header values accepted (DNS-rebinding protection); unset accepts any. */
  allowedHosts?: string[];
}

/** A `node:http` request handler serving Talon's catalog over MCP streamable HTTP, plus its controls. */
export interface TalonMcpHttpHandler {
  /** Mount with `http.createServer(handler.handle)`; answers 404 for other paths. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Sends `notifications/tools/list_changed` to every session (also done on catalog `onChange`). */
  notifyToolsChanged(): Promise<void>;
  /** Open MCP sessions. */
  sessionCount(): number;
  /** Closes every session and stops listening to the catalog. */
  close(): Promise<void>;
}

interface Session {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
}

/**
 * Talon as an MCP server over streamable HTTP: one SDK server and transport per session (created by
 * `initialize`, found again by the `mcp-session-id` header, dropped on DELETE or close).
 */
export function createTalonMcpHttpHandler(options: TalonMcpHttpOptions): TalonMcpHttpHandler {
  const path = options.path ?? DEFAULT_TALON_MCP_PATH;
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_MCP_SESSIONS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_MCP_BODY_BYTES;
  const sessions = new Map<string, Session>();
  const notifyToolsChanged = async () => {
    await Promise.all(
      [...sessions.values()].map((session) => session.server.sendToolListChanged().catch(() => undefined)),
    );
  };
  const unsubscribe = options.catalog.onChange?.(() => void notifyToolsChanged());
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_MCP_SESSION_IDLE_MS;
  const reaper = setInterval(
    () => {
      const now = Date.now();
      for (const [id, session] of sessions) {
        if (now - session.lastSeen < sessionIdleMs) continue;
        sessions.delete(id);
        void session.server.close().catch(() => undefined);
      }
    },
    Math.max(100, Math.min(sessionIdleMs, 60_000)),
  );
  reaper.unref();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://talon.invalid');
    if (url.pathname !== path) return reply(res, 404, -32000, `Not found: MCP is served at ${path}`);
    const sessionId = header(req, 'mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, -32001, 'Session not found: start a new one with initialize');
      session.lastSeen = Date.now();
      const body =
        req.method === 'POST' ? await readJson(req, maxBodyBytes).catch((error: Error) => error) : undefined;
      if (body instanceof Error) return reply(res, 400, -32700, body.message);
      return session.transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST')
      return reply(res, 400, -32000, 'Bad request: no mcp-session-id; send initialize first');
    const body = await readJson(req, maxBodyBytes).catch((error: Error) => error);
    if (body instanceof Error) return reply(res, 400, -32700, body.message);
    if (!isInitializeRequest(body))
      return reply(res, 400, -32000, 'Bad request: no mcp-session-id; send initialize first');
    if (sessions.size >= maxSessions)
      return reply(res, 503, -32000, `Too many MCP sessions (${maxSessions}); close one and retry`);
    // The session id exists once initialize is handled; the server reads it lazily for the call context.
    const server = createTalonMcpServer(options, () => transport.sessionId);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { server, transport, lastSeen: Date.now() });
      },
      ...(options.allowedHosts
        ? { enableDnsRebindingProtection: true, allowedHosts: options.allowedHosts }
        : {}),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  return {
    handle,
    notifyToolsChanged,
    sessionCount: () => sessions.size,
    close: async () => {
      unsubscribe?.();
      clearInterval(reaper);
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((session) => session.server.close().catch(() => undefined)));
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new Error(`Request body over ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Error('Parse error: the body is not JSON');
  }
}
