import { LlmError } from './errors/llm-error.js';
import { llmErrorFromFailure } from './llm-error-from-failure.js';
import { isRetryableFailure, type LlmFailure } from './llm-failure.js';
import { retryDelayMs, sleepUnlessAborted, type LlmRetryPolicy } from './llm-retry-policy.js';
import type { LlmStreamEvent } from './llm-types.js';

/** A retry about to happen, for logs and metrics. */
export interface LlmRetryNotice {
  /** The attempt that failed (1-based). */
  readonly attempt: number;
  readonly delayMs: number;
  readonly failure: LlmFailure;
}

/** What {@link retryingStream} needs from a provider. */
export interface RetryingStreamOptions {
  readonly provider: string;
  readonly baseURL: string;
  readonly policy: LlmRetryPolicy;
  readonly signal?: AbortSignal;
  /** Fails an attempt that receives nothing for this long (a hung server). Absent: no watchdog. */
  readonly idleTimeoutMs?: number;
  /**
   * Starts one attempt; the signal aborts when the caller aborts or stops iterating. The attempt
   * calls `touch` for every raw chunk the SDK hands over, including ones that yield no event.
   */
  open(signal: AbortSignal, touch: () => void): AsyncIterable<LlmStreamEvent>;
  describeFailure(error: unknown): LlmFailure;
  onRetry?(notice: LlmRetryNotice): void;
}

/**
 * Runs attempts until one streams to the end. A failure is retried only while nothing has been
 * delivered (a half-delivered reply cannot be taken back), only if it is retryable, and only within
 * the policy's attempts and `retry-after` cap. The SDKs' own retries are turned off so that both
 * protocols share this one policy, its tunable delays and the abortable wait.
 */
export async function* retryingStream(
  options: RetryingStreamOptions,
): AsyncGenerator<LlmStreamEvent, void, undefined> {
  const { policy, signal } = options;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    const watchdog = new IdleWatchdog(options.idleTimeoutMs, () => controller.abort());
    let delivered = false;
    let failure: LlmFailure;
    let cause: unknown;
    try {
      watchdog.touch();
      for await (const event of options.open(controller.signal, watchdog.touch)) {
        // Events the SDK had already buffered must not leak out after an abort.
        if (signal?.aborted) throw signal.reason;
        delivered = true;
        // The caller's own pace between events is not the server's silence.
        watchdog.pause();
        yield event;
        watchdog.touch();
      }
      return;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (LlmError.isLlmError(error)) throw error;
      failure = watchdog.fired
        ? { kind: 'connection', reason: `no data from the server for ${options.idleTimeoutMs} ms` }
        : options.describeFailure(error);
      cause = error;
    } finally {
      watchdog.pause();
      signal?.removeEventListener('abort', forwardAbort);
      controller.abort();
    }
    if (failure.kind === 'aborted') throw cause;
    const retryAfterMs = 'retryAfterMs' in failure ? failure.retryAfterMs : undefined;
    const waitTooLong = retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs;
    if (delivered || waitTooLong || attempt >= policy.maxAttempts || !isRetryableFailure(failure)) {
      const context = {
        provider: options.provider,
        baseURL: options.baseURL,
        attempts: attempt,
        interrupted: delivered,
      };
      throw llmErrorFromFailure(failure, context, cause);
    }
    const delayMs = retryDelayMs(policy, attempt, retryAfterMs);
    options.onRetry?.({ attempt, delayMs, failure });
    await sleepUnlessAborted(delayMs, signal);
  }
}

/** Calls `onIdle` when `touch` has not been called for `timeoutMs`. */
class IdleWatchdog {
  fired = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly timeoutMs: number | undefined,
    private readonly onIdle: () => void,
  ) {}

  readonly touch = (): void => {
    if (this.timeoutMs === undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.onIdle();
    }, this.timeoutMs);
  };

  pause(): void {
    clearTimeout(this.timer);
  }
}
