import { TalonError } from '@talon/errors';
import { CallAbort } from './call-abort.js';
import { ToolTimeoutError } from './errors/tool-timeout-error.js';

/**
 * Runs `work` with a {@link CallAbort} that fires after `timeoutMs`, when `parent` aborts or when `abort`
 * (the caller's own, e.g. a worker's cancel) is aborted, and stops waiting at that moment even if `work`
 * ignores it (its late result or error is dropped).
 * Rejects with {@link ToolTimeoutError} (`timeout` or `cancelled`), or with the abort's reason when that is
 * already a TalonError.
 */
export function runWithTimeout<T>(
  tool: string,
  timeoutMs: number,
  parent: AbortSignal | undefined,
  work: (abort: CallAbort) => Promise<T>,
  abort: CallAbort = new CallAbort(),
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cancelledBy = (reason: unknown): TalonError =>
      TalonError.isInstance(reason) ? reason : new ToolTimeoutError(tool, timeoutMs, 'cancelled');
    if (parent?.aborted) abort.abort(cancelledBy(parent.reason));
    if (abort.aborted) {
      reject(cancelledBy(abort.reason));
      return;
    }
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
      unlisten();
      action();
    };
    const stop = (error: TalonError): void => {
      settle(() => reject(error));
      abort.abort(error);
    };
    const onParentAbort = (): void => stop(cancelledBy(parent?.reason));
    const timer = setTimeout(() => stop(new ToolTimeoutError(tool, timeoutMs)), timeoutMs);
    parent?.addEventListener('abort', onParentAbort, { once: true });
    const unlisten = abort.onAbort((reason) => stop(cancelledBy(reason)));
    let pending: Promise<T>;
    try {
      pending = work(abort);
    } catch (error) {
      pending = Promise.reject(error);
    }
    pending.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
