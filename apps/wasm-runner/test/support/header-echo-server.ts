import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A loopback HTTP server that records each request's headers and echoes them back as JSON. */
export interface HeaderEchoServer {
  port: number;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1; `/slow` answers after `slowMs`. */
export async function startHeaderEchoServer(slowMs = 1500): Promise<HeaderEchoServer> {
  const requests: HeaderEchoServer['requests'] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requests.push({ path, headers: request.headers });
    void (async () => {
      if (path.startsWith('/slow')) await sleep(slowMs);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ path, headers: request.headers }));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
