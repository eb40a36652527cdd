import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { busyPortProblem, isPortTaken } from './port-check.js';

describe('busyPortProblem', () => {
  it('names the busy port and the variable that moves it; nothing when every port is free', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect(await isPortTaken('127.0.0.1', port)).toBe(true);
      const problem = await busyPortProblem([
        { what: 'gRPC API', host: '127.0.0.1', port: 0, variable: 'TALON_GRPC_PORT' },
        { what: 'HTTP API', host: '127.0.0.1', port, variable: 'TALON_HTTP_PORT' },
      ]);
      expect(problem).toBe(
        `Port ${port} (HTTP API) on 127.0.0.1 is in use: stop what listens there, or set TALON_HTTP_PORT to a free port (e.g. TALON_HTTP_PORT=${port + 1} pnpm talon up).`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(await isPortTaken('127.0.0.1', port)).toBe(false);
    expect(
      await busyPortProblem([{ what: 'HTTP API', host: '127.0.0.1', port, variable: 'TALON_HTTP_PORT' }]),
    ).toBeUndefined();
  });
});
