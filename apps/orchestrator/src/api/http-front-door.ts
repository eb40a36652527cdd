import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '@talon/auth';
import { ERROR_CODES, HTTP_STATUS_BY_CODE, type ErrorCode } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import type { FrontDoorConfig } from '../config/orchestrator-config.js';
import { bearerToken, type ApiAuthenticator } from '../auth/api-authenticator.js';
import { CONSOLE_ROUTES } from '../console/console-static.js';

/** Query parameters that look like a token: refused, since URLs end up in logs, history and referrers. */
const TOKEN_QUERY_NAMES = new Set([
  'token',
  'access_token',
  'talon_token',
  'auth',
  'authorization',
  'bearer',
  'api_key',
  'apikey',
]);

/**
 * Routes reached without a token: the OAuth redirect target (checked by its `state`), routine webhooks
 * (checked by their HMAC-SHA256 signature and timestamp) and the OpenAPI document (the same as the
 * repository's docs/openapi.json: no state, and client generators fetch it without credentials). The Host,
 * Origin and media-type rules still apply.
 */
const PUBLIC_ROUTES = [/^\/mcp\/oauth\/callback\/[^/]+$/, /^\/v1\/hooks\/[^/]+$/];
/** The OpenAPI document's route, public for GET only. */
const OPENAPI_ROUTE = '/v1/openapi.json';

const principals = new WeakMap<IncomingMessage, Principal>();

/** The principal the front door verified for this request. */
export function principalOf(request: IncomingMessage): Principal | undefined {
  return principals.get(request);
}

function refuse(response: ServerResponse, code: ErrorCode, message: string, details?: unknown): void {
  const status = HTTP_STATUS_BY_CODE[code] ?? 400;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cache-control': 'no-store' };
  if (code === ERROR_CODES.UNAUTHENTICATED) headers['www-authenticate'] = 'Bearer realm="talon"';
  response.writeHead(status, headers);
  response.end(
    JSON.stringify({ ok: false, error: { code, message, ...(details === undefined ? {} : { details }) } }),
  );
}

function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * The HTTP front door, in front of every route (REST, RPC, SSE and `/mcp`). In order:
 * 1. the `Host` header must be an allowed host (DNS rebinding);
 * 2. an `Origin` must be the API's own or an allowed one, and a browser's `Sec-Fetch-Site: cross-site`
 *    is refused unless its origin is allowed (a cross-site page cannot even send a "simple request");
 * 3. tokens in the query string are refused;
 * 4. request bodies must be `application/json` (no form or text/plain "simple requests");
 * 5. `Authorization: Bearer <token>` must name a valid token (the route's scope is checked behind).
 * CORS headers are sent only for configured origins.
 */
export function httpFrontDoor(config: FrontDoorConfig, authenticator: ApiAuthenticator) {
  const allowedHosts = new Set(config.allowedHosts.map((host) => host.toLowerCase()));
  const allowedOrigins = new Set(config.allowedOrigins.map((origin) => origin.toLowerCase()));
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    response.removeHeader('x-powered-by');
    const host = (request.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host))
      return refuse(
        response,
        ERROR_CODES.FORBIDDEN,
        `Host "${host}" is not served here. Call the API by an allowed name, or add it to TALON_HTTP_ALLOWED_HOSTS.`,
        { reason: 'host' },
      );
    const origin = request.headers.origin?.toLowerCase();
    const sameOrigin = origin === `http://${host}` || origin === `https://${host}`;
    const originAllowed = origin !== undefined && (sameOrigin || allowedOrigins.has(origin));
    if (origin !== undefined && !originAllowed)
      return refuse(
        response,
        ERROR_CODES.FORBIDDEN,
        `Pages from ${origin} may not call this API. Add the origin to TALON_HTTP_ALLOWED_ORIGINS to allow it.`,
        { reason: 'origin' },
      );
    if (request.headers['sec-fetch-site'] === 'cross-site' && !originAllowed)
      return refuse(response, ERROR_CODES.FORBIDDEN, 'Cross-site requests may not call this API.', {
        reason: 'cross-site',
      });
    if (origin && allowedOrigins.has(origin)) {
      response.setHeader('access-control-allow-origin', request.headers.origin!);
      response.setHeader('vary', 'Origin');
      if (request.method === 'OPTIONS') {
        response.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers':
            'authorization, content-type, last-event-id, mcp-session-id, mcp-protocol-version',
          'access-control-max-age': '600',
        });
        return void response.end();
      }
    }
    const url = new URL(request.url ?? '/', 'http://talon.invalid');
    for (const name of url.searchParams.keys()) {
      if (TOKEN_QUERY_NAMES.has(name.toLowerCase()))
        return refuse(
          response,
          ERROR_CODES.UNAUTHENTICATED,
          `Tokens are accepted only in the Authorization header, never in the URL (found "${name}" in the query).`,
        );
    }
    const method = request.method ?? 'GET';
    if (
      (method === 'POST' ||
        ((method === 'PUT' || method === 'PATCH' || method === 'DELETE') && hasBody(request))) &&
      !isJson(request.headers['content-type'])
    )
      return refuse(
        response,
        ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
        `Request bodies must be application/json (got "${request.headers['content-type'] ?? 'none'}").`,
      );
    if (PUBLIC_ROUTES.some((route) => route.test(url.pathname))) return next();
    // The console's page and bundle hold no data: the login happens in the page, with a bearer token.
    if ((method === 'GET' || method === 'HEAD') && CONSOLE_ROUTES.some((route) => route.test(url.pathname)))
      return next();
    if (method === 'GET' && url.pathname === OPENAPI_ROUTE) return next();
    authenticator.authenticate(bearerToken(request.headers.authorization)).then(
      (principal) => {
        principals.set(request, principal);
        next();
      },
      (error: unknown) => {
        const wire = toWireError(error);
        refuse(response, wire.code, wire.message);
      },
    );
  };
}
