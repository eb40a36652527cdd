import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES } from './error-codes.js';

/** The error half of every reply: a stable code, a message that says what to do, optional details. */
export const WireErrorSchema = Type.Object(
  {
    code: Type.Union(Object.values(ERROR_CODES).map((code) => Type.Literal(code))),
    message: Type.String(),
    details: Type.Optional(Type.Unknown()),
    retryable: Type.Optional(Type.Boolean()),
  },
  { $id: 'WireError' },
);
/** A typed error as it travels on the wire. */
export type WireError = Static<typeof WireErrorSchema>;

/** Every reply on every NATS subject is `{ ok: true, data }` or `{ ok: false, error }`. */
export type Envelope<T> = { ok: true; data: T } | { ok: false; error: WireError };

/** JSON Schema of an envelope whose success data follows `data`. */
export function envelopeSchema<T extends TSchema>(data: T) {
  return Type.Union([
    Type.Object({ ok: Type.Literal(true), data }),
    Type.Object({ ok: Type.Literal(false), error: WireErrorSchema }),
  ]);
}
