import type { ToolContext } from './tool.js';

/**
 * Runs `listener` once when the call is aborted (at once when it already was) and returns what removes it:
 * through the context's `onAbort` when it offers one, which makes no AbortSignal, else through its signal.
 */
export function listenForCallAbort(
  context: Pick<ToolContext, 'signal' | 'onAbort'>,
  listener: (reason: unknown) => void,
): () => void {
  if (context.onAbort) return context.onAbort(listener);
  const signal = context.signal;
  if (signal.aborted) {
    listener(signal.reason);
    return () => undefined;
  }
  const onAbort = (): void => listener(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
