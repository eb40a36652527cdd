import {
  context as otelContext,
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { isTracingEnabled } from './tracing-switch.js';
import { ATTR } from './span-attributes.js';

export { SpanKind, type Span, type Attributes };

/** The span handed to work when tracing is off: every method is a no-op. */
const NOOP_SPAN: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** How a span starts. */
export interface SpanStart {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  /** The parent, e.g. extracted from message headers; default the active context. */
  readonly parent?: Context;
}

const TRACER_NAME = '@talon/telemetry';

/** The code a failure carries (a Talon error's `code`), else `INTERNAL`. */
function codeOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.length > 0 && code.length <= 64 ? code : 'INTERNAL';
}

/**
 * Marks a span failed with the error's code (`error.type` and `talon.error.code`). The message is left out
 * on purpose: error messages may quote params, and spans leave the process.
 */
export function recordFailure(span: Span, error: unknown): void {
  const code = codeOf(error);
  span.setAttribute(ATTR.errorType, code);
  span.setAttribute(ATTR.errorCode, code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/**
 * Runs `work` inside a new active span that ends when the work settles (a thrown error or rejected promise
 * marks it failed). With tracing off `work` runs at once with a no-op span.
 */
export function inSpan<T>(name: string, start: SpanStart, work: (span: Span) => T): T {
  if (!isTracingEnabled()) return work(NOOP_SPAN);
  const tracer = trace.getTracer(TRACER_NAME);
  const parent = start.parent ?? otelContext.active();
  return tracer.startActiveSpan(
    name,
    { kind: start.kind ?? SpanKind.INTERNAL, ...(start.attributes ? { attributes: start.attributes } : {}) },
    parent,
    (span) => {
      let result: T;
      try {
        result = work(span);
      } catch (error) {
        recordFailure(span, error);
        span.end();
        throw error;
      }
      if (result instanceof Promise) {
        return result.then(
          (value: unknown) => {
            span.end();
            return value;
          },
          (error: unknown) => {
            recordFailure(span, error);
            span.end();
            throw error;
          },
        ) as T;
      }
      span.end();
      return result;
    },
  );
}

/** The active span when one records, else `undefined` (always `undefined` with tracing off). */
export function activeSpan(): Span | undefined {
  if (!isTracingEnabled()) return undefined;
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}

/** Binds a callback to the context active now (for work resumed from an event, e.g. a stream's first token). */
export function bindToActiveContext<F extends (...args: never[]) => unknown>(callback: F): F {
  return isTracingEnabled() ? otelContext.bind(otelContext.active(), callback) : callback;
}
