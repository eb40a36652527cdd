/** Subscribes a listener to something that changes; returns the unsubscribe function. */
export type ChangeSubscribe = (listener: () => void) => () => void;

/**
 * Resolves `true` as soon as `isDone()` holds (checked at once, then after every change `subscribe` reports),
 * `false` after `waitMs` or when `signal` aborts: for a call that waits a moment for a tool, a record or an
 * announcement still on its way.
 */
export function untilChanged(
  subscribe: ChangeSubscribe,
  isDone: () => boolean,
  waitMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  if (isDone()) return Promise.resolve(true);
  if (waitMs <= 0 || signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (done: boolean): void => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(done);
    };
    const onAbort = (): void => finish(false);
    const timer = setTimeout(() => finish(false), waitMs);
    const unsubscribe = subscribe(() => {
      if (isDone()) finish(true);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
