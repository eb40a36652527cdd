import { connect, type NatsConnection } from '@nats-io/transport-node';
import { setTimeout as sleep } from 'node:timers/promises';
import { NatsUnreachableError } from './errors/nats-unreachable-error.js';
import { NatsAuthorizationError } from './errors/nats-authorization-error.js';
import { redactNatsUrl } from './nats-url-redaction.js';
import type { NatsClientAuth } from './service-config.js';

/** nats.js reports refused credentials as an error whose code or message names the authorization violation. */
function isAuthorizationFailure(error: unknown): boolean {
  const text = `${(error as { code?: string })?.code ?? ''} ${(error as Error)?.message ?? ''}`.toLowerCase();
  return text.includes('authorization') || text.includes('authentication');
}

/** How to reach NATS the first time. */
export interface NatsConnectOptions {
  url: string;
  name: string;
  /** User, password and TLS; none connects anonymously (refused by a Talon NATS server). */
  auth?: NatsClientAuth;
  /** Prefix of this connection's reply inboxes (each service has its own; see `NATS_PERMISSIONS`). */
  inboxPrefix?: string;
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
        // nats.js builds an Error (a stack trace) per request and per timer only to decorate a timeout:
        // 0.1 ms of CPU a request, measured, and our errors carry their own codes and subjects.
        noAsyncTraces: true,
        ...(options.inboxPrefix ? { inboxPrefix: options.inboxPrefix } : {}),
        ...(options.auth?.user ? { user: options.auth.user, pass: options.auth.password } : {}),
        ...(options.auth?.tls
          ? {
              tls: {
                caFile: options.auth.tls.caFile,
                certFile: options.auth.tls.certFile,
                keyFile: options.auth.tls.keyFile,
              },
            }
          : {}),
      });
    } catch (error) {
      lastError = error;
      if (isAuthorizationFailure(error))
        throw new NatsAuthorizationError(redactNatsUrl(options.url), options.auth?.user, error);
      if (attempt < options.attempts) {
        options.onRetry?.(attempt, error);
        await sleep(options.delayMs);
      }
    }
  }
  throw new NatsUnreachableError(redactNatsUrl(options.url), options.attempts, lastError);
}
