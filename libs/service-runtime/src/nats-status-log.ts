import type { NatsConnection } from '@nats-io/transport-node';
import { talonMetrics } from '@talon/telemetry';
import type { JsonLogger } from './json-logger.js';

/**
 * Logs what happens to the NATS connection: disconnects, reconnects (with the server, never credentials)
 * (counted in `talon_nats_reconnects_total`) and permission violations, which the server reports asynchronously instead of failing the publish.
 */
export function watchConnectionStatus(connection: NatsConnection, logger: JsonLogger): void {
  void (async () => {
    for await (const status of connection.status()) {
      const { type } = status;
      const server = 'server' in status ? String(status.server) : undefined;
      if (type === 'disconnect') logger.write('warn', 'NATS disconnected', { server });
      else if (type === 'reconnect') {
        talonMetrics().natsReconnects.inc();
        logger.write('info', 'NATS reconnected', { server });
      } else if (type === 'error')
        logger.write('error', 'NATS error', { error: String((status as { error?: unknown }).error) });
    }
  })().catch(() => undefined);
}
