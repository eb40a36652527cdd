import { API_PREFIX } from '@talon/contracts';
import type { NatsHandlerRegistration } from '@talon/service-runtime';
import type { ApiAuthenticator } from '../auth/api-authenticator.js';
import type { ApiRouter } from './api-router.js';

/**
 * The NATS surface: one wildcard subscription, so an unknown method gets UNKNOWN_METHOD, not silence.
 * The caller's token travels in the `talon-token` header. Registered with the NATS server directly (no
 * Nest wrapper per request), as the workers' tool-call subjects are: every API call crosses it.
 */
export function natsApiHandler(router: ApiRouter, authenticator: ApiAuthenticator): NatsHandlerRegistration {
  return {
    pattern: `${API_PREFIX}.>`,
    handler: async (payload, context) =>
      router.call(context.subject.slice(API_PREFIX.length + 1), payload, {
        surface: 'nats',
        callId: context.callId,
        traceparent: context.traceparent,
        principal: await authenticator.authenticate(context.token),
      }),
  };
}
