import { trace, propagation, context, diag, DiagLogLevel } from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import type { TracingConfig } from './telemetry-config.js';
import { QuietSpanExporter } from './quiet-span-exporter.js';
import { setTracingEnabled } from './tracing-switch.js';

/** What {@link startTracing} needs besides the config. */
export interface TracingStartOptions {
  /** `service.instance.id` of the resource. */
  readonly instanceId: string;
  /** Where the SDK's warnings go (a rate-limited export failure, a dropped span). */
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

/** A running tracer provider. */
export interface TracingHandle {
  /** Exports what is buffered (tests and shutdown). */
  flush(): Promise<void>;
  /** Flushes and stops; spans after this are not recorded. */
  shutdown(): Promise<void>;
}

async function samplerOf(config: TracingConfig): Promise<Sampler> {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } =
    await import('@opentelemetry/sdk-trace-base');
  switch (config.sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(config.samplerRatio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.samplerRatio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Starts the OpenTelemetry SDK for this process: spans batched to OTLP/HTTP (JSON), W3C trace context as
 * the propagator, async-local context. Without a config nothing is loaded and every span helper stays a
 * no-op. Call once, before the app starts handling messages.
 */
export async function startTracing(
  config: TracingConfig | undefined,
  options: TracingStartOptions,
): Promise<TracingHandle | undefined> {
  if (config === undefined) return undefined;
  const [
    { NodeTracerProvider },
    { BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
    core,
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
  ]);
  diag.setLogger(
    {
      error: (message) => options.warn(`opentelemetry: ${message}`, {}),
      warn: (message) => options.warn(`opentelemetry: ${message}`, {}),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
  );
  // Export errors are reported by the quiet exporter, at most once a minute.
  core.setGlobalErrorHandler(() => undefined);
  const exporter = new QuietSpanExporter(
    new OTLPTraceExporter({ url: config.tracesUrl, headers: { ...config.headers } }),
    options.warn,
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': config.serviceName,
      'service.instance.id': options.instanceId,
    }),
    sampler: await samplerOf(config),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: config.scheduleDelayMs })],
  });
  provider.register({ propagator: new core.W3CTraceContextPropagator() });
  setTracingEnabled(true);
  return {
    // A failed export is reported by the quiet exporter; flushing never throws for it.
    flush: () => provider.forceFlush().catch(() => undefined),
    async shutdown() {
      setTracingEnabled(false);
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}
