import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the echo server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP server on 127.0.0.1 that answers every request with its own headers, path and body as JSON. */
export interface EchoServer {
  host: string;
  baseUrl: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts the server; `/v1/big` answers with `bigBytes` bytes, `/v1/redirect` with a 302, `/v1/slow` after 400 ms. */
export async function startEchoServer(options: { bigBytes?: number } = {}): Promise<EchoServer> {
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      if (entry.url.startsWith('/v1/big')) {
        response.end('x'.repeat(options.bigBytes ?? 1_000_000));
        return;
      }
      if (entry.url.startsWith('/v1/redirect')) {
        response.writeHead(302, { location: '/elsewhere' }).end();
        return;
      }
      if (entry.url.startsWith('/v1/current.json')) {
        if (request.headers['x-api-key'] !== 'wk-secret-123') {
          response.writeHead(401).end('{"error":"bad key"}');
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify({
            location: { name: 'Lisbon', country: 'Portugal' },
            current: {
              temp_c: 21.5,
              temp_f: 70.7,
              condition: { text: 'Sunny' },
              wind_kph: 11,
              wind_mph: 6.8,
              humidity: 40,
            },
          }),
        );
        return;
      }
      if (entry.url.startsWith('/v1/slow')) {
        setTimeout(() => response.end(JSON.stringify(entry)), 400);
        return;
      }
      // Echo everything, including the request headers, in the body and in a response header.
      response.setHeader('x-echo-headers', JSON.stringify(request.headers));
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(entry));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
