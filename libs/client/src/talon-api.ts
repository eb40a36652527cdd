import type { ApiMethodName, ApiReplyOf, ApiRequestOf } from '@talon/contracts';
import type { CallOptions } from './talon-client-options.js';

/** One API method as a function: the request may be left out when every field of it is optional. */
export type ApiMethodFunction<M extends ApiMethodName> =
  Record<never, never> extends ApiRequestOf<M>
    ? (request?: ApiRequestOf<M>, options?: CallOptions) => Promise<ApiReplyOf<M>>
    : (request: ApiRequestOf<M>, options?: CallOptions) => Promise<ApiReplyOf<M>>;

/**
 * The methods under one prefix, nested by the dots of their names: `tools.call` is `api.tools.call`,
 * `mcp.resources.list` is `api.mcp.resources.list`. Derived from the contract's table alone, so a method
 * added there is a typed function here with no code.
 */
export type ApiNamespace<Prefix extends string> = {
  [
    M in ApiMethodName as M extends `${Prefix}${infer Rest}`
      ? Rest extends `${infer Head}.${string}`
        ? Head
        : Rest
      : never
  ]: M extends `${Prefix}${infer Rest}`
    ? Rest extends `${infer Head}.${string}`
      ? ApiNamespace<`${Prefix}${Head}.`>
      : ApiMethodFunction<M>
    : never;
};

/** Every method of the public API, namespaced. */
export type TalonApi = ApiNamespace<''>;

/** Builds the object behind {@link TalonApi}: one function per name, nested by the dots. */
export function buildApiTree(
  names: readonly string[],
  call: (method: string, request: unknown, options?: CallOptions) => Promise<unknown>,
): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const name of names) {
    const parts = name.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = (request?: unknown, options?: CallOptions) => call(name, request ?? {}, options);
  }
  return root;
}
