import { createServer, type Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { Registry } from 'prom-client';
import type { MetricsListenConfig } from './telemetry-config.js';

/** A running `/metrics` listener. */
export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Serves `GET /metrics` in the Prometheus text format on its own address (services without an HTTP API).
 * With a token, a scrape must send `Authorization: Bearer <token>`. A scrape that races shutdown gets the
 * values as they stand (the listener closes last).
 */
export async function startMetricsServer(
  config: MetricsListenConfig,
  registry: Registry,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    if (config.token !== undefined && !tokenMatches(request.headers.authorization, config.token)) {
      response
        .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="talon-metrics"' })
        .end('Send Authorization: Bearer <TALON_METRICS_TOKEN>.\n');
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
