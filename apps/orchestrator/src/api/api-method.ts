import type { TSchema } from '@sinclair/typebox';

/** Who is calling and how: the same for NATS, gRPC and HTTP. */
export interface ApiCallContext {
  surface: 'nats' | 'grpc' | 'http';
  callId?: string;
  traceparent?: string;
}

/** One method of the public API: its name, request schema and handler. */
export interface ApiMethod<Request = unknown, Reply = unknown> {
  name: string;
  description: string;
  request: TSchema;
  handle(request: Request, context: ApiCallContext): Promise<Reply>;
}
