import { TelemetryConfigError } from './errors/telemetry-config-error.js';

/** The samplers of `OTEL_TRACES_SAMPLER` (the names of the OpenTelemetry specification). */
export const TRACE_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TraceSampler = (typeof TRACE_SAMPLERS)[number];

/** Tracing as configured by the standard `OTEL_*` variables; `undefined` in {@link TelemetryConfig} means off. */
export interface TracingConfig {
  /** Where spans go: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`, else `OTEL_EXPORTER_OTLP_ENDPOINT` + `/v1/traces`. */
  readonly tracesUrl: string;
  /** `OTEL_SERVICE_NAME`, default the app's name. */
  readonly serviceName: string;
  /** `OTEL_TRACES_SAMPLER`, default `parentbased_always_on`. */
  readonly sampler: TraceSampler;
  /** `OTEL_TRACES_SAMPLER_ARG` for the ratio samplers, default 1. */
  readonly samplerRatio: number;
  /** `OTEL_EXPORTER_OTLP_HEADERS` (`k=v,k2=v2`), sent with every export. */
  readonly headers: Readonly<Record<string, string>>;
  /** `OTEL_BSP_SCHEDULE_DELAY`: ms between batch exports, default 5000. */
  readonly scheduleDelayMs: number;
}

/** The Prometheus endpoint of a service without an HTTP port of its own. */
export interface MetricsListenConfig {
  /** `TALON_METRICS_PORT`. */
  readonly port: number;
  /** `TALON_METRICS_HOST`, default `127.0.0.1`: only local scrapers reach it unless you say otherwise. */
  readonly host: string;
  /** `TALON_METRICS_TOKEN`: a bearer token a scraper must send; required to listen beyond loopback. */
  readonly token?: string;
}

/** Telemetry of one service. */
export interface TelemetryConfig {
  readonly tracing?: TracingConfig;
  readonly metrics?: MetricsListenConfig;
}

export const DEFAULT_METRICS_HOST = '127.0.0.1';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '::1', 'localhost']);

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function parseUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TelemetryConfigError(name, value, 'an http(s) URL such as http://collector:4318');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TelemetryConfigError(name, value, 'an http(s) URL (OTLP over HTTP)');
  return url.toString();
}

function parseHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) {
      if (pair.trim())
        throw new TelemetryConfigError(
          'OTEL_EXPORTER_OTLP_HEADERS',
          '<redacted>',
          'comma-separated key=value pairs',
        );
      continue;
    }
    headers[decodeURIComponent(pair.slice(0, at).trim())] = decodeURIComponent(pair.slice(at + 1).trim());
  }
  return headers;
}

function parseTracing(env: NodeJS.ProcessEnv, defaultServiceName: string): TracingConfig | undefined {
  if (text(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const exporter = text(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase();
  if (exporter === 'none') return undefined;
  if (exporter !== undefined && exporter !== 'otlp')
    throw new TelemetryConfigError('OTEL_TRACES_EXPORTER', exporter, '"otlp" or "none"');
  const protocol =
    text(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? text(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol !== undefined && protocol !== 'http/json')
    throw new TelemetryConfigError(
      'OTEL_EXPORTER_OTLP_PROTOCOL',
      protocol,
      '"http/json" (Talon exports OTLP as JSON over HTTP; every collector accepts it on :4318)',
    );
  const tracesEndpoint = text(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = text(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  // No endpoint, no tracing: the SDK is never loaded and spans cost nothing.
  if (tracesEndpoint === undefined && endpoint === undefined) return undefined;
  const tracesUrl = tracesEndpoint
    ? parseUrl('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', tracesEndpoint)
    : parseUrl('OTEL_EXPORTER_OTLP_ENDPOINT', endpoint!).replace(/\/?$/, '/v1/traces');
  const sampler = (text(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on') as TraceSampler;
  if (!TRACE_SAMPLERS.includes(sampler))
    throw new TelemetryConfigError('OTEL_TRACES_SAMPLER', sampler, `one of ${TRACE_SAMPLERS.join(', ')}`);
  const ratioText = text(env, 'OTEL_TRACES_SAMPLER_ARG');
  const samplerRatio = ratioText === undefined ? 1 : Number(ratioText);
  if (!Number.isFinite(samplerRatio) || samplerRatio < 0 || samplerRatio > 1)
    throw new TelemetryConfigError('OTEL_TRACES_SAMPLER_ARG', ratioText!, 'a number from 0 to 1');
  const delayText = text(env, 'OTEL_BSP_SCHEDULE_DELAY');
  const scheduleDelayMs = delayText === undefined ? 5000 : Number(delayText);
  if (!Number.isInteger(scheduleDelayMs) || scheduleDelayMs < 1)
    throw new TelemetryConfigError(
      'OTEL_BSP_SCHEDULE_DELAY',
      delayText!,
      'a positive number of milliseconds',
    );
  return {
    tracesUrl,
    scheduleDelayMs,
    serviceName: text(env, 'OTEL_SERVICE_NAME') ?? defaultServiceName,
    sampler,
    samplerRatio,
    headers: parseHeaders(
      text(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS') ?? text(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
    ),
  };
}

function parseMetrics(env: NodeJS.ProcessEnv): MetricsListenConfig | undefined {
  const portText = text(env, 'TALON_METRICS_PORT');
  if (portText === undefined) return undefined;
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new TelemetryConfigError('TALON_METRICS_PORT', portText, 'a TCP port (0–65535)');
  const host = text(env, 'TALON_METRICS_HOST') ?? DEFAULT_METRICS_HOST;
  const token = text(env, 'TALON_METRICS_TOKEN');
  if (token !== undefined && token.length < 16)
    throw new TelemetryConfigError('TALON_METRICS_TOKEN', '<redacted>', 'at least 16 characters');
  // Metrics name tools, skills and servers: beyond loopback only a scraper with the token may read them.
  if (!LOOPBACK_HOSTS.has(host) && token === undefined)
    throw new TelemetryConfigError(
      'TALON_METRICS_HOST',
      host,
      'a loopback address, or set TALON_METRICS_TOKEN so scrapers from elsewhere must authenticate',
    );
  return { port, host, ...(token ? { token } : {}) };
}

/**
 * Reads the telemetry variables of one service (its config module calls this once at start): tracing from
 * the standard `OTEL_*` variables (off unless an OTLP endpoint is set), metrics from `TALON_METRICS_*`.
 */
export function parseTelemetryConfig(env: NodeJS.ProcessEnv, defaultServiceName: string): TelemetryConfig {
  const tracing = parseTracing(env, defaultServiceName);
  const metrics = parseMetrics(env);
  return { ...(tracing ? { tracing } : {}), ...(metrics ? { metrics } : {}) };
}
