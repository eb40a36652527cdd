import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';

/**
 * The console's pages may run only the bundled script and talk only to this origin: no inline script or
 * style markup, no plugins, no framing, no form posts, images from the page itself or data/blob URLs
 * (tool outputs that are images). React sets styles through the CSSOM, which `style-src 'self'` allows.
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Paths the console is served at; the front door lets GET and HEAD of these through without a token. */
export const CONSOLE_ROUTES = [/^\/$/, /^\/index\.html$/, /^\/assets\/[A-Za-z0-9._-]+$/];

function secure(response: ServerResponse): void {
  response.setHeader('content-security-policy', CONSOLE_CONTENT_SECURITY_POLICY);
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('referrer-policy', 'no-referrer');
  response.setHeader('x-frame-options', 'DENY');
  response.setHeader('cross-origin-opener-policy', 'same-origin');
}

/**
 * Serves the built console from `dir`: `index.html` revalidated on every load (it names the current
 * bundle), `assets/*` cached for a year (their names carry a content hash). Everything else falls through
 * to the API. A missing build answers 503 with the command that makes it.
 */
export function consoleStatic(dir: string) {
  const indexPath = join(dir, 'index.html');
  const assets = express.static(join(dir, 'assets'), {
    index: false,
    immutable: true,
    maxAge: '365d',
    fallthrough: false,
    dotfiles: 'deny',
  });
  return (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void): void => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const path = new URL(request.url ?? '/', 'http://talon.invalid').pathname;
    if (!CONSOLE_ROUTES.some((route) => route.test(path))) return next();
    secure(response);
    if (!existsSync(indexPath)) {
      response.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      response.end(
        JSON.stringify({
          ok: false,
          error: {
            code: 'UNAVAILABLE',
            message: `The console is not built (no ${indexPath}). Run \`pnpm build\`, or set TALON_CONSOLE_DIR to a built console.`,
          },
        }),
      );
      return;
    }
    if (path.startsWith('/assets/')) {
      request.url = path.slice('/assets'.length);
      return assets(request as express.Request, response as express.Response, next);
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    response.end(request.method === 'HEAD' ? undefined : readFileSync(indexPath));
  };
}
