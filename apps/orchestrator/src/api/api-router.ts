import { Injectable } from '@nestjs/common';
import { UnknownMethodError, validatePayload } from '@talon/service-runtime';
import { ForbiddenError, UnauthenticatedError } from '@talon/auth';
import { scopeAllows, type ApiScope } from '@talon/contracts';
import {
  ATTR,
  activeSpan,
  extractTraceContext,
  inSpan,
  isTracingEnabled,
  SpanKind,
  talonMetrics,
} from '@talon/telemetry';
import type { ApiCallContext, ApiMethod } from './api-method.js';

/**
 * The single entry of the public API. NATS, gRPC and HTTP all call `call(method, payload)`, so every
 * surface shares one list of methods, one validation step and one set of error codes.
 */
@Injectable()
export class ApiRouter {
  private readonly methods = new Map<string, ApiMethod>();

  register(method: ApiMethod<never, unknown>): void {
    if (this.methods.has(method.name)) throw new Error(`API method ${method.name} registered twice`);
    this.methods.set(method.name, method as ApiMethod);
  }

  /** Every method with the scope it needs (`by-request` when the request decides, as for `tools.call`). */
  list(): Array<{ name: string; description: string; scope: ApiScope | 'by-request' }> {
    return [...this.methods.values()].map(({ name, description, scope }) => ({
      name,
      description,
      scope: typeof scope === 'function' ? 'by-request' : scope,
    }));
  }

  /**
   * Authorises, validates and runs one call. A call without a principal is refused before anything else;
   * a method's fixed scope is checked before its payload is read, a scope that depends on the request
   * right after validation.
   */
  async call(name: string, payload: unknown, context: ApiCallContext): Promise<unknown> {
    // Unknown names share one label: a caller cannot grow the metric's series.
    const method = this.methods.has(name) ? name : 'unknown';
    const started = performance.now();
    const metrics = talonMetrics();
    try {
      const result = isTracingEnabled()
        ? await this.callInSpan(name, payload, context)
        : await this.authorizeAndRun(name, payload, context);
      metrics.apiRequests.inc({ method, surface: context.surface, code: 'ok' });
      return result;
    } catch (error) {
      const code = (error as { code?: unknown })?.code;
      metrics.apiRequests.inc({
        method,
        surface: context.surface,
        code: typeof code === 'string' ? code : 'INTERNAL',
      });
      throw error;
    } finally {
      metrics.apiDuration.observe({ method, surface: context.surface }, (performance.now() - started) / 1000);
    }
  }

  /**
   * The call as a span: a child of the NATS server span, or, over HTTP and gRPC, of the `traceparent` the
   * client sent (a malformed one is ignored and the call starts a new trace).
   */
  private callInSpan(name: string, payload: unknown, context: ApiCallContext): Promise<unknown> {
    const nested = context.traceCarrier === undefined && activeSpan() !== undefined;
    return inSpan(
      `talon.api/${this.methods.has(name) ? name : 'unknown'}`,
      {
        kind: nested ? SpanKind.INTERNAL : SpanKind.SERVER,
        ...(context.traceCarrier ? { parent: extractTraceContext(context.traceCarrier) } : {}),
        attributes: {
          [ATTR.rpcSystem]: 'talon',
          [ATTR.rpcService]: 'talon.api.v1',
          [ATTR.rpcMethod]: name.slice(0, 64),
          [ATTR.apiSurface]: context.surface,
          ...(context.callId ? { [ATTR.callId]: context.callId } : {}),
        },
      },
      () => this.authorizeAndRun(name, payload, context),
    );
  }

  private async authorizeAndRun(name: string, payload: unknown, context: ApiCallContext): Promise<unknown> {
    const principal = context.principal;
    if (!principal) throw new UnauthenticatedError('The call carries no verified token.');
    const method = this.methods.get(name);
    if (!method) throw new UnknownMethodError(name, [...this.methods.keys()].sort());
    if (typeof method.scope === 'string' && !scopeAllows(principal.scope, method.scope))
      throw new ForbiddenError(name, method.scope, principal.scope);
    const request = validatePayload(method.request, payload ?? {}, `The payload of ${name}`);
    if (typeof method.scope === 'function') {
      const needed = method.scope(request);
      if (!scopeAllows(principal.scope, needed)) throw new ForbiddenError(name, needed, principal.scope);
    }
    return method.handle(request, context);
  }
}
