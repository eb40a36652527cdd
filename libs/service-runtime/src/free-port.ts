import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Lowest port handed out; below it are the well-known and registered services people run. */
const LOWEST_PORT = 20_000;
/** Ports this process handed out or found busy: never twice (the first taker may not have bound it yet). */
const handedOut = new Set<number>();

/**
 * The first port of the kernel's ephemeral range (`ip_local_port_range`, 32768 by default). A port
 * found free inside that range can be taken by any outgoing connection before the service binds it, so
 * ports are picked below it.
 */
function ephemeralRangeStart(): number {
  try {
    const first = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
    return Number.isInteger(first) && first > LOWEST_PORT + 1000 ? first : 0;
  } catch {
    return 0;
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A free TCP port on 127.0.0.1 for a service to listen on: below the ephemeral range (so no outgoing
 * connection takes it meanwhile), never one this process handed out before, and starting at an offset
 * of the process id, so that processes looking at the same time take different ports. Where the range
 * cannot be read, the kernel picks.
 */
export async function findFreePort(): Promise<number> {
  const end = ephemeralRangeStart();
  if (end === 0) return kernelPort();
  const span = end - LOWEST_PORT;
  const offset = (process.pid * 97) % span;
  for (let step = 0; step < span; step++) {
    const port = LOWEST_PORT + ((offset + handedOut.size + step) % span);
    if (handedOut.has(port)) continue;
    // Taken before the check, so two calls at once never probe (and hand out) the same port.
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  return kernelPort();
}
