import type { TSchema } from '@sinclair/typebox';
import type { Principal } from '@talon/auth';
import type { ApiScope } from '@talon/contracts';
import type { HeaderCarrier } from '@talon/telemetry';

/** Who is calling and how: the same for NATS, gRPC and HTTP. */
export interface ApiCallContext {
  surface: 'nats' | 'grpc' | 'http';
  callId?: string;
  traceparent?: string;
  /**
   * The HTTP headers or gRPC metadata of the call, for its W3C trace context (`traceparent`, `tracestate`).
   * On NATS the transport has already continued the caller's trace, so this stays unset.
   */
  traceCarrier?: HeaderCarrier;
  /** The verified caller; the router refuses a call without one. */
  principal?: Principal;
}

/** One method of the public API: its name, the scope it needs, request schema and handler. */
export interface ApiMethod<Request = unknown, Reply = unknown> {
  name: string;
  description: string;
  /**
   * The scope a token needs to call this method: a constant, or decided from the validated request
   * (e.g. `tools.call` is `agent` with `policy: "agent"`, else `operator`). Every method must declare one.
   */
  scope: ApiScope | ((request: Request) => ApiScope);
  request: TSchema;
  handle(request: Request, context: ApiCallContext): Promise<Reply>;
}
