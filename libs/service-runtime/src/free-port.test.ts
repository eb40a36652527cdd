import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { readFileSync } from 'node:fs';
import { findFreePort } from './free-port.js';

describe('findFreePort', () => {
  it('hands out distinct ports that can be listened on, below the ephemeral range', async () => {
    const ephemeralStart = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    const ports = await Promise.all(Array.from({ length: 20 }, () => findFreePort()));
    expect(new Set(ports).size).toBe(20);
    for (const port of ports) expect(port).toBeLessThan(ephemeralStart);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it('skips a port something already listens on', async () => {
    const taken = await findFreePort();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(taken, '127.0.0.1', resolve));
    try {
      const next = await Promise.all(Array.from({ length: 5 }, () => findFreePort()));
      expect(next).not.toContain(taken);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
