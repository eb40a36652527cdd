import { TalonError } from '@talon/errors';
import { ToolTimeoutError } from './errors/tool-timeout-error.js';

/**
 * Runs `work` with an AbortSignal that fires after `timeoutMs` or when `parent` aborts, and stops waiting
 * at that moment even if `work` ignores the signal (its late result or error is dropped).
 * Rejects with {@link ToolTimeoutError} (`timeout` or `cancelled`), or with the parent's reason when that
 * is already a TalonError.
 */
export function runWithTimeout<T>(
  tool: string,
  timeoutMs: number,
  parent: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const controller = new AbortController();
    const cancelledBy = (reason: unknown): TalonError =>
      TalonError.isInstance(reason) ? reason : new ToolTimeoutError(tool, timeoutMs, 'cancelled');
    if (parent?.aborted) {
      const error = cancelledBy(parent.reason);
      controller.abort(error);
      reject(error);
      return;
    }
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
      action();
    };
    const stop = (error: TalonError): void => {
      settle(() => reject(error));
      controller.abort(error);
    };
    const onParentAbort = (): void => stop(cancelledBy(parent?.reason));
    const timer = setTimeout(() => stop(new ToolTimeoutError(tool, timeoutMs)), timeoutMs);
    parent?.addEventListener('abort', onParentAbort, { once: true });
    let pending: Promise<T>;
    try {
      pending = work(controller.signal);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
