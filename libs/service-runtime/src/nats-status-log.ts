import type { NatsConnection } from '@nats-io/transport-node';
import type { JsonLogger } from './json-logger.js';

/**
 * Logs what happens to the NATS connection: disconnects, reconnects (with the server, never credentials)
 * and permission violations, which the server reports asynchronously instead of failing the publish.
 */
export function watchConnectionStatus(connection: NatsConnection, logger: JsonLogger): void {
  void (async () => {
    for await (const status of connection.status()) {
      const { type } = status;
      const server = 'server' in status ? String(status.server) : undefined;
      if (type === 'disconnect') logger.write('warn', 'NATS disconnected', { server });
      else if (type === 'reconnect') logger.write('info', 'NATS reconnected', { server });
      else if (type === 'error')
        logger.write('error', 'NATS error', { error: String((status as { error?: unknown }).error) });
    }
  })().catch(() => undefined);
}
