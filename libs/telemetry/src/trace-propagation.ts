import {
  context as otelContext,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { isTracingEnabled } from './tracing-switch.js';

/** Headers as NATS (`MsgHdrs`), HTTP and gRPC metadata wrappers expose them. */
export interface HeaderCarrier {
  get(name: string): string | undefined;
  set?(name: string, value: string): void;
}

/** W3C trace context header names. */
export const TRACE_HEADERS = { traceparent: 'traceparent', tracestate: 'tracestate' } as const;

/**
 * The longest `tracestate` accepted from a peer; the W3C limit is 32 members of at most 256 characters,
 * but the SDK already drops state beyond 512 characters. Longer values are ignored before parsing.
 */
export const MAX_TRACESTATE_LENGTH = 512;
/** `traceparent` is 55 characters in version 00; later versions may append fields. */
const MAX_TRACEPARENT_LENGTH = 128;

const getter: TextMapGetter<HeaderCarrier> = {
  keys: () => [TRACE_HEADERS.traceparent, TRACE_HEADERS.tracestate],
  get(carrier, key) {
    const value = carrier.get(key);
    if (!value) return undefined;
    const limit = key === TRACE_HEADERS.tracestate ? MAX_TRACESTATE_LENGTH : MAX_TRACEPARENT_LENGTH;
    return value.length > limit ? undefined : value;
  },
};

const setter: TextMapSetter<HeaderCarrier> = {
  set(carrier, key, value) {
    carrier.set?.(key, value);
  },
};

/** Whether a span is active now, so that a request should carry trace headers. */
export function hasActiveTrace(): boolean {
  if (!isTracingEnabled()) return false;
  return trace.getSpanContext(otelContext.active()) !== undefined;
}

/**
 * Writes `traceparent`/`tracestate` of the active span into `carrier`; returns whether it did. Callers that
 * otherwise send no headers check {@link hasActiveTrace} first, so a call outside a trace stays header-free.
 */
export function injectTraceHeaders(carrier: HeaderCarrier, active: Context = otelContext.active()): boolean {
  if (!isTracingEnabled() || trace.getSpanContext(active) === undefined) return false;
  propagation.inject(active, carrier, setter);
  return true;
}

/**
 * The context a peer sent in `carrier` (W3C trace context); a missing, malformed or oversized value yields
 * a context with no parent, so the receiver starts a new trace instead of failing.
 */
export function extractTraceContext(carrier: HeaderCarrier | undefined): Context {
  if (!isTracingEnabled() || carrier === undefined) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, getter);
}

/** A carrier over a plain record (HTTP headers, gRPC metadata copied out, a `traceparent` field). */
export function recordCarrier(record: Record<string, string | string[] | undefined>): HeaderCarrier {
  return {
    get(name) {
      const value = record[name];
      return Array.isArray(value) ? value[0] : value;
    },
    set(name, value) {
      record[name] = value;
    },
  };
}
