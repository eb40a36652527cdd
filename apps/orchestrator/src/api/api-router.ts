import { Injectable } from '@nestjs/common';
import { UnknownMethodError, validatePayload } from '@talon/service-runtime';
import type { ApiScope } from '@talon/contracts';
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

  async call(name: string, payload: unknown, context: ApiCallContext): Promise<unknown> {
    const method = this.methods.get(name);
    if (!method) throw new UnknownMethodError(name, [...this.methods.keys()].sort());
    const request = validatePayload(method.request, payload ?? {}, `The payload of ${name}`);
    return method.handle(request, context);
  }
}
