import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** How often a failing export may be reported. */
export const EXPORT_WARNING_INTERVAL_MS = 60_000;

/**
 * An exporter that fails quietly: an unreachable collector costs the spans of the batch and one warning a
 * minute (with the count dropped since the last one), never an error in a call or a log line per batch.
 */
export class QuietSpanExporter implements SpanExporter {
  private lastWarning = Number.NEGATIVE_INFINITY;
  private droppedSinceWarning = 0;

  constructor(
    private readonly inner: SpanExporter,
    private readonly warn: (message: string, fields: Record<string, unknown>) => void,
    private readonly intervalMs = EXPORT_WARNING_INTERVAL_MS,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.failed(spans.length, result.error);
      done(result);
    });
  }

  private failed(count: number, error: Error | undefined): void {
    this.droppedSinceWarning += count;
    const now = Date.now();
    if (now - this.lastWarning < this.intervalMs) return;
    this.lastWarning = now;
    this.warn('trace export failed; spans dropped (calls are unaffected)', {
      dropped: this.droppedSinceWarning,
      error: String(error?.message ?? error ?? 'unknown'),
    });
    this.droppedSinceWarning = 0;
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
