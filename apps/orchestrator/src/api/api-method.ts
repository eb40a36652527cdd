import type { TSchema } from '@sinclair/typebox';
import type { ApiScope } from '@talon/contracts';

/** The authenticated caller of one API call. */
export interface ApiPrincipal {
  /** Token id (`tok_…`), or `bootstrap`/`local` for built-in principals. */
  id: string;
  name: string;
  scope: ApiScope;
}

/** Who is calling and how: the same for NATS, gRPC and HTTP. */
export interface ApiCallContext {
  surface: 'nats' | 'grpc' | 'http';
  callId?: string;
  traceparent?: string;
  /** Set by the router once the call's token is verified. */
  principal?: ApiPrincipal;
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
