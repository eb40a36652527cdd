import type { TalonNatsContext } from './talon-nats-context.js';

/**
 * A handler `TalonNatsServer` calls itself, without Nest's per-request wrapper (parameter decorators, pipes,
 * guards, interceptors, filters; Talon's services use none of them but the error filter, which only
 * rethrows). Drain, metrics, spans, acknowledgements and the reply envelope are the server's, as for any
 * handler. For the hottest subjects: on a tool call the wrapper cost the worker 5 % of its CPU (measured).
 */
export interface NatsHandlerRegistration {
  pattern: string;
  handler: (payload: unknown, context: TalonNatsContext) => Promise<unknown>;
}
