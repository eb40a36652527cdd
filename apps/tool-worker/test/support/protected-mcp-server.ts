import { createHash, randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** How a {@link ProtectedMcpServer} checks callers. */
export type ProtectedMcpMode =
  | { auth: 'bearer'; token: string }
  /** OAuth with protected-resource and authorization-server metadata, dynamic registration and PKCE. */
  | { auth: 'oauth' }
  /** Answers 401 like an OAuth server but publishes no metadata at all. */
  | { auth: 'oauth-without-metadata' };

/** A loopback MCP server (streamable HTTP at `/mcp`) behind bearer or OAuth auth, for tests. */
export interface ProtectedMcpServer {
  mcpUrl: string;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  /** Authorization headers seen on `/mcp`. */
  authorizations: string[];
  /** Access tokens issued by the token endpoint. */
  issuedTokens: string[];
  close(): Promise<void>;
}

/**
 * Starts the SDK's `McpServer` with one tool, `whoami`, behind the chosen auth on 127.0.0.1. In OAuth
 * mode the same origin is its own authorization server: RFC 9728 and RFC 8414 metadata, `/register`,
 * an `/authorize` that approves at once (302 to the redirect URI with code and state), and a `/token`
 * that checks the PKCE verifier.
 */
export async function startProtectedMcpServer(mode: ProtectedMcpMode): Promise<ProtectedMcpServer> {
  const requests: string[] = [];
  const authorizations: string[] = [];
  const issuedTokens: string[] = [];
  const codes = new Map<string, { challenge: string; clientId: string }>();
  const callers = new Map<string, string>();
  if (mode.auth === 'bearer') callers.set(mode.token, 'bearer caller');
  let base = '';
  const oauth = mode.auth === 'oauth';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const serveMcp = async (req: IncomingMessage, res: ServerResponse, caller: string) => {
    const server = new McpServer({ name: `protected-${mode.auth}`, version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says who is calling' }, async () => ({
      content: [{ type: 'text', text: `authorized as ${caller}` }],
    }));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    res.on('close', () => void server.close());
    await transport.handleRequest(
      req,
      res,
      req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined,
    );
  };

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/mcp') {
      if (req.headers.authorization) authorizations.push(req.headers.authorization);
      const caller = callers.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
      if (caller) return serveMcp(req, res, caller);
      const challenge = oauth
        ? `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`
        : 'Bearer';
      return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
    }
    if (!oauth) return json(res, 404, { error: 'not_found' });
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp')
      return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(res, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST') {
      const metadata = JSON.parse(await readBody(req)) as Record<string, unknown>;
      return json(res, 201, {
        ...metadata,
        client_id: `client-${randomBytes(4).toString('hex')}`,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    }
    if (url.pathname === '/authorize') {
      if (url.searchParams.get('code_challenge_method') !== 'S256')
        return json(res, 400, { error: 'invalid_request' });
      const code = randomBytes(8).toString('hex');
      codes.set(code, {
        challenge: url.searchParams.get('code_challenge') ?? '',
        clientId: url.searchParams.get('client_id') ?? '',
      });
      const target = new URL(url.searchParams.get('redirect_uri') ?? '');
      target.searchParams.set('code', code);
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      return res.writeHead(302, { location: target.toString() }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      const form = new URLSearchParams(await readBody(req));
      const grant = codes.get(form.get('code') ?? '');
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (form.get('grant_type') !== 'authorization_code' || !grant || grant.challenge !== challenge)
        return json(res, 400, { error: 'invalid_grant' });
      codes.delete(form.get('code') ?? '');
      const token = `at-${randomBytes(12).toString('hex')}`;
      issuedTokens.push(token);
      callers.set(token, grant.clientId);
      return json(res, 200, {
        access_token: token,
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: `rt-${randomBytes(12).toString('hex')}`,
      });
    }
    return json(res, 404, { error: 'not_found' });
  };

  const http: HttpServer = createServer(
    (req, res) => void handler(req, res).catch((error: Error) => json(res, 500, { error: error.message })),
  );
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const address = http.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    mcpUrl: `${base}/mcp`,
    requests,
    authorizations,
    issuedTokens,
    close: () =>
      new Promise((done) => {
        http.closeAllConnections();
        http.close(() => done());
      }),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
