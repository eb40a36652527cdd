import type { NatsConnection, Status } from '@nats-io/transport-node';

/**
 * Collects the asynchronous errors the server reports on a connection (permission violations arrive this
 * way, not as a thrown error): the returned array fills as they come.
 */
export function collectNatsErrors(connection: NatsConnection): string[] {
  const errors: string[] = [];
  void (async () => {
    for await (const status of connection.status() as AsyncIterable<Status>) {
      if (status.type === 'error') errors.push(String((status as { error?: unknown }).error));
    }
  })();
  return errors;
}
