import { Type, type Static } from '@sinclair/typebox';

/** A request/reply with no parameters. */
export const EmptyRequestSchema = Type.Object({}, { additionalProperties: false });
/** Request of a method without parameters. */
export type EmptyRequest = Static<typeof EmptyRequestSchema>;

/** The generic gRPC and HTTP call: a method name and its JSON payload. */
export const ApiCallSchema = Type.Object({
  method: Type.String({ pattern: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)+$' }),
  payload: Type.Optional(Type.Unknown()),
});
/** A generic API call. */
export type ApiCall = Static<typeof ApiCallSchema>;
