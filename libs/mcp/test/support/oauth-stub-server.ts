import { createHash, randomBytes } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** A loopback OAuth authorization server and protected MCP server in one, for tests. */
export interface OAuthStub {
  baseUrl: string;
  mcpUrl: string;
  /** Requests seen, as "METHOD path". */
  requests: string[];
  /** Authorization headers seen on the MCP endpoint. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * Serves RFC 9728 protected-resource metadata, RFC 8414 metadata, dynamic client registration, an
 * authorize endpoint that approves at once (redirects with a code), a PKCE-checking token endpoint, and
 * an MCP endpoint (stateless streamable HTTP) that needs the issued bearer token.
 * With `metadata: false` it serves none of the OAuth documents (a server that cannot do OAuth);
 * `pointAt` makes the metadata send Talon elsewhere (a hostile server naming a metadata address).
 */
export async function startOAuthStub(
  options: {
    metadata?: boolean;
    pointAt?: { authorizationServer?: string; registration?: string; token?: string };
  } = {},
): Promise<OAuthStub> {
  const withMetadata = options.metadata ?? true;
  const pointAt = options.pointAt ?? {};
  const requests: string[] = [];
  const authorizations: string[] = [];
  const codes = new Map<string, { challenge: string; clientId: string; redirectUri: string }>();
  const tokens = new Map<string, string>();
  let baseUrl = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', baseUrl);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp' && withMetadata) {
      return json(res, 200, {
        resource: `${baseUrl}/mcp`,
        authorization_servers: [pointAt.authorizationServer ?? baseUrl],
      });
    }
    if (url.pathname === '/.well-known/oauth-authorization-server' && withMetadata) {
      return json(res, 200, {
        issuer: baseUrl,
        authorization_endpoint: `${baseUrl}/authorize`,
        token_endpoint: pointAt.token ?? `${baseUrl}/token`,
        registration_endpoint: pointAt.registration ?? `${baseUrl}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
      });
    }
    if (url.pathname === '/register' && req.method === 'POST' && withMetadata) {
      const metadata = JSON.parse(await readBody(req)) as Record<string, unknown>;
      return json(res, 201, {
        ...metadata,
        client_id: `client-${randomBytes(4).toString('hex')}`,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    }
    if (url.pathname === '/authorize' && withMetadata) {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('code_challenge_method') !== 'S256')
        return json(res, 400, { error: 'invalid_request' });
      const code = randomBytes(8).toString('hex');
      codes.set(code, {
        challenge: url.searchParams.get('code_challenge') ?? '',
        clientId: url.searchParams.get('client_id') ?? '',
        redirectUri,
      });
      const target = new URL(redirectUri);
      target.searchParams.set('code', code);
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      return res.writeHead(302, { location: target.toString() }).end();
    }
    if (url.pathname === '/token' && req.method === 'POST' && withMetadata) {
      const form = new URLSearchParams(await readBody(req));
      const grant = codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (form.get('grant_type') !== 'authorization_code' || !grant || grant.challenge !== challenge)
        return json(res, 400, { error: 'invalid_grant' });
      codes.delete(form.get('code') ?? '');
      const accessToken = `at-${randomBytes(8).toString('hex')}`;
      tokens.set(accessToken, grant.clientId);
      return json(res, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600 });
    }
    if (url.pathname === '/mcp') {
      if (req.headers.authorization) authorizations.push(req.headers.authorization);
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      const clientId = tokens.get(token);
      if (!clientId) {
        const challenge = withMetadata
          ? `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource/mcp"`
          : 'Bearer';
        return json(res, 401, { error: 'invalid_token' }, { 'www-authenticate': challenge });
      }
      const server = new Server(
        { name: 'oauth-protected', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: [{ name: 'whoami', description: 'Who is calling', inputSchema: { type: 'object' } }],
      }));
      server.setRequestHandler(CallToolRequestSchema, async () => ({
        content: [{ type: 'text', text: `authorized as ${clientId}` }],
      }));
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      const body = req.method === 'POST' ? JSON.parse(await readBody(req)) : undefined;
      await transport.handleRequest(req, res, body);
      res.on('close', () => void server.close());
      return;
    }
    return json(res, 404, { error: 'not_found' });
  };

  const http: HttpServer = createServer(
    (req, res) => void handler(req, res).catch((error: Error) => json(res, 500, { error: error.message })),
  );
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const address = http.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    baseUrl,
    mcpUrl: `${baseUrl}/mcp`,
    requests,
    authorizations,
    close: () => new Promise((done) => http.close(() => done())),
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
