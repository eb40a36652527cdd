import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { API_METHODS, type ErrorCode, type WireError } from '@talon/contracts';
import { TalonError } from './talon-error.js';
import { TalonProtocolError } from './talon-protocol-error.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives wrapped.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/** Codes whose failure may pass if the same call is sent again. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'NO_RESPONDERS',
  'TIMEOUT',
  'UNAVAILABLE',
  'RATE_LIMITED',
]);

/** True when an error with this code may pass on a retry (the server's `retryable` flag wins when set). */
export function isRetryableCode(code: string): boolean {
  return RETRYABLE_CODES.has(code);
}

/** A tolerant reader: fields a newer server adds are allowed everywhere in a reply. */
function tolerant(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tolerant);
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'additionalProperties' && value === false) continue;
    copy[key] = tolerant(value);
  }
  return copy;
}

/**
 * Turns a reply body into the method's data or a typed error: the envelope must be one, the error half
 * must carry a code and a message, and the data must match the contract's reply schema.
 */
export class ReplyChecker {
  private readonly ajv = new Ajv({ allErrors: false, strict: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly validateData: boolean) {
    addFormats(this.ajv);
  }

  private validator(method: string): ValidateFunction | undefined {
    if (!this.validateData || !Object.hasOwn(API_METHODS, method)) return undefined;
    let validate = this.validators.get(method);
    if (!validate) {
      const contract = API_METHODS[method as keyof typeof API_METHODS];
      validate = this.ajv.compile(tolerant(contract.reply) as object);
      this.validators.set(method, validate);
    }
    return validate;
  }

  /** The data of a successful reply; throws TalonError for an error envelope, TalonProtocolError for garbage. */
  data(method: string, body: unknown, callId?: string): unknown {
    if (typeof body !== 'object' || body === null || typeof (body as { ok?: unknown }).ok !== 'boolean')
      throw new TalonProtocolError(method, 'not a {ok, data | error} envelope');
    const envelope = body as { ok: boolean; data?: unknown; error?: unknown };
    if (!envelope.ok) {
      const error = envelope.error as
        { code?: unknown; message?: unknown; details?: unknown; retryable?: unknown } | undefined;
      if (typeof error?.code !== 'string' || typeof error.message !== 'string')
        throw new TalonProtocolError(method, 'an error envelope without code and message');
      throw new TalonError(error.code as ErrorCode, error.message, {
        details: error.details,
        retryable: typeof error.retryable === 'boolean' ? error.retryable : isRetryableCode(error.code),
        method,
        wire: error as WireError,
        ...(callId ? { callId } : {}),
      });
    }
    if (!('data' in envelope)) throw new TalonProtocolError(method, 'a success envelope without data');
    const validate = this.validator(method);
    if (validate && !validate(envelope.data))
      throw new TalonProtocolError(
        method,
        (validate.errors ?? [])
          .slice(0, 3)
          .map((error) => `data${error.instancePath} ${error.message ?? 'is invalid'}`)
          .join('; '),
        validate.errors,
      );
    return envelope.data;
  }
}
