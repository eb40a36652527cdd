import { connect, type NatsConnection } from '@nats-io/transport-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { NatsUnreachableError } from './errors/nats-unreachable-error.js';

/** How to reach NATS the first time. */
export interface NatsConnectOptions {
  url: string;
  name: string;
  attempts: number;
  delayMs: number;
  onRetry?: (attempt: number, error: unknown) => void;
}

/**
 * Connects with a bounded retry so a service started before NATS waits a little, and a service
 * with no NATS at all fails with a message that says what to do instead of hanging.
 * After the first connection, nats.js reconnects on its own.
 */
export async function connectToNats(options: NatsConnectOptions): Promise<NatsConnection> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= options.attempts; attempt++) {
    try {
      return await connect({
        servers: options.url.split(',').map((server) => server.trim()),
        name: options.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        timeout: 2000,
      });
    } catch (error) {
      lastError = error;
      if (attempt < options.attempts) {
        options.onRetry?.(attempt, error);
        await sleep(options.delayMs);
      }
    }
  }
  throw new NatsUnreachableError(options.url, options.attempts, lastError);
}
