import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CountedCounter } from './counted-counter.js';
import { CountedHistogram } from './counted-histogram.js';

/** Latency buckets in seconds, from a fast NATS hop (0.5 ms) to a slow tool or model call (60 s). */
const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/** Lag buckets in seconds: a tick late (250 ms) to a slot caught up an hour after it was due. */
const LAG_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/** Values of a labelled gauge read at scrape time, e.g. `{ builtin: 12, wasm: 3 }`. */
export type GaugeReading = () => Readonly<Record<string, number>> | Promise<Readonly<Record<string, number>>>;

/** A gauge whose values are read from the service at scrape time (one label). */
function readGauge(registry: Registry, name: string, help: string, label: string) {
  let read: GaugeReading | undefined;
  const gauge = new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    async collect() {
      if (read === undefined) return;
      const values = await read();
      gauge.reset();
      for (const [value, count] of Object.entries(values)) gauge.set({ [label]: value }, count);
    },
  });
  return {
    gauge,
    /** Sets where the values come from (the last call wins). */
    observe(reading: GaugeReading): void {
      read = reading;
    },
  };
}

/**
 * A gauge of work in progress by one label, counted in a plain map and written into the gauge at scrape
 * time: it moves twice per request, and prom-client's labelled `inc`/`dec` hash the labels every time.
 */
function countingGauge(registry: Registry, name: string, help: string, label: string) {
  const counts = new Map<string, number>();
  const gauge = new Gauge({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      gauge.reset();
      for (const [value, count] of counts) gauge.set({ [label]: value }, count);
    },
  });
  return {
    gauge,
    inc(value: string): void {
      counts.set(value, (counts.get(value) ?? 0) + 1);
    },
    dec(value: string): void {
      counts.set(value, (counts.get(value) ?? 0) - 1);
    },
  };
}

/** A single-value gauge read at scrape time. */
function readValue(registry: Registry, name: string, help: string) {
  let read: (() => number | Promise<number>) | undefined;
  const gauge = new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      if (read !== undefined) gauge.set(await read());
    },
  });
  return {
    gauge,
    observe(reading: () => number | Promise<number>): void {
      read = reading;
    },
  };
}

/**
 * Every metric family Talon exports, in one Prometheus registry per process. Each service fills the ones it
 * owns; the rest stay absent from its scrape (a counter with no labels seen yet prints only its HELP).
 */
export function createTalonMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    apiRequests: new CountedCounter(
      registry,
      'talon_api_requests_total',
      'Public API calls by method, surface and outcome code (ok or the error code).',
      ['method', 'surface', 'code'] as const,
    ),
    apiDuration: new CountedHistogram(registry, {
      name: 'talon_api_request_duration_seconds',
      help: 'Time to answer a public API call, by method and surface.',
      labelNames: ['method', 'surface'],
      buckets: LATENCY_BUCKETS,
    }),
    natsRequests: new CountedCounter(
      registry,
      'talon_nats_requests_total',
      'NATS requests this service answered, by subject pattern and outcome code.',
      ['subject', 'code'] as const,
    ),
    natsDuration: new CountedHistogram(registry, {
      name: 'talon_nats_request_duration_seconds',
      help: 'Time to answer a NATS request, by subject pattern.',
      labelNames: ['subject'],
      buckets: LATENCY_BUCKETS,
    }),
    natsInFlight: countingGauge(
      registry,
      'talon_nats_requests_in_flight',
      'NATS requests being handled now, by subject pattern.',
      'subject',
    ),
    natsReconnects: new Counter({
      name: 'talon_nats_reconnects_total',
      help: 'Times the NATS connection was re-established.',
      registers,
    }),
    toolCalls: new CountedCounter(
      registry,
      'talon_tool_calls_total',
      'Tool calls dispatched by the orchestrator, by tool, domain and outcome code.',
      ['tool', 'domain', 'code'] as const,
    ),
    toolCallDuration: new CountedHistogram(registry, {
      name: 'talon_tool_call_duration_seconds',
      help: 'Time of a dispatched tool call end to end (attempts, transport, output safety), by tool.',
      labelNames: ['tool', 'domain'],
      buckets: LATENCY_BUCKETS,
    }),
    toolCallsInFlight: countingGauge(
      registry,
      'talon_tool_calls_in_flight',
      'Tool calls dispatched and not yet answered, by domain.',
      'domain',
    ),
    toolExecutions: new CountedCounter(
      registry,
      'talon_tool_executions_total',
      'Tool calls executed by this worker, by tool and outcome code.',
      ['tool', 'code'] as const,
    ),
    toolExecutionDuration: new CountedHistogram(registry, {
      name: 'talon_tool_execution_duration_seconds',
      help: 'Time a worker spent running a tool, by tool (queue wait excluded).',
      labelNames: ['tool'],
      buckets: LATENCY_BUCKETS,
    }),
    toolQueueWait: new CountedHistogram(registry, {
      name: 'talon_tool_queue_wait_seconds',
      help: 'Time a tool call waited in this worker for a free concurrency slot.',
      labelNames: [],
      buckets: LATENCY_BUCKETS,
    }),
    catalogTools: readGauge(
      registry,
      'talon_catalog_tools',
      'Tools in the live catalog, by source (local, or the announcing service).',
      'source',
    ),
    approvalsPending: readValue(
      registry,
      'talon_approvals_pending',
      'Tool calls waiting for a person to decide.',
    ),
    modelCalls: new Counter({
      name: 'talon_model_calls_total',
      help: 'Model calls by provider, model and outcome code.',
      labelNames: ['provider', 'model', 'code'],
      registers,
    }),
    modelTokens: new Counter({
      name: 'talon_model_tokens_total',
      help: 'Tokens reported by the model, by provider, model and type (input or output).',
      labelNames: ['provider', 'model', 'type'],
      registers,
    }),
    modelDuration: new Histogram({
      name: 'talon_model_call_duration_seconds',
      help: 'Time of a model call until its stream ended, by provider and model.',
      labelNames: ['provider', 'model'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    modelTimeToFirstToken: new Histogram({
      name: 'talon_model_time_to_first_token_seconds',
      help: 'Time from a model request to its first streamed text or tool call.',
      labelNames: ['provider', 'model'],
      buckets: LATENCY_BUCKETS,
      registers,
    }),
    wasmInstances: readValue(registry, 'talon_wasm_instances', 'WebAssembly component workers alive now.'),
    wasmCompileCache: new Counter({
      name: 'talon_wasm_compile_cache_total',
      help: 'Component compilations asked of the cache, by result (hit or miss).',
      labelNames: ['result'],
      registers,
    }),
    wasmWorkerStops: new Counter({
      name: 'talon_wasm_worker_stops_total',
      help: 'Component workers stopped by the pool, by reason: recycled after a timeout, trap or crash, or retired with its memory near the cap.',
      labelNames: ['reason'],
      registers,
    }),
    mcpServers: readGauge(registry, 'talon_mcp_servers', 'MCP servers by connection state.', 'state'),
    routineFires: new Counter({
      name: 'talon_routine_fires_total',
      help: 'Routine fires claimed by this orchestrator, by source (schedule, catch_up, manual, webhook, event, system_event) and outcome (enqueued or skipped).',
      labelNames: ['source', 'outcome'],
      registers,
    }),
    routineFireLag: new Histogram({
      name: 'talon_routine_fire_lag_seconds',
      help: "Time from a fire's slot (its scheduled instant, or when an event fired it) to its job's first start, by fire source.",
      labelNames: ['source'],
      buckets: LAG_BUCKETS,
      registers,
    }),
    jobsFinished: new Counter({
      name: 'talon_jobs_finished_total',
      help: 'Jobs this orchestrator brought to a final state, by state (completed, failed, cancelled).',
      labelNames: ['state'],
      registers,
    }),
    jobsRunning: readValue(registry, 'talon_jobs_running', 'Jobs this orchestrator runs now.'),
  };
}

export type TalonMetrics = ReturnType<typeof createTalonMetrics>;

let processMetrics: TalonMetrics | undefined;

/**
 * The metrics of this process. The first caller names the service (the app's `main.ts` calls it at start);
 * libraries that record into it later get the same registry.
 */
export function talonMetrics(service = 'talon'): TalonMetrics {
  processMetrics ??= createTalonMetrics(service);
  return processMetrics;
}

/** Seconds since a `performance.now()` reading. */
export function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
