import { describe, expect, it } from '@jest/globals';
import { parseTelemetryConfig } from './telemetry-config.js';
import { TelemetryConfigError } from './errors/telemetry-config-error.js';

describe('parseTelemetryConfig', () => {
  it('is off without an OTLP endpoint and without a metrics port', () => {
    expect(parseTelemetryConfig({}, 'talon-x')).toEqual({});
    expect(
      parseTelemetryConfig({ OTEL_SERVICE_NAME: 'y', OTEL_TRACES_SAMPLER: 'always_on' }, 'talon-x'),
    ).toEqual({});
  });

  it('reads the standard variables, with per-app defaults', () => {
    const config = parseTelemetryConfig(
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'x-key=a%3Db,team=t',
      },
      'talon-orchestrator',
    );
    expect(config.tracing).toEqual({
      tracesUrl: 'http://collector:4318/v1/traces',
      serviceName: 'talon-orchestrator',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
      headers: { 'x-key': 'a=b', team: 't' },
      scheduleDelayMs: 5000,
    });
    expect(
      parseTelemetryConfig(
        {
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://c.example/custom',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
          OTEL_SERVICE_NAME: 'mine',
        },
        'x',
      ).tracing,
    ).toMatchObject({
      tracesUrl: 'https://c.example/custom',
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      serviceName: 'mine',
    });
  });

  it('honours OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(parseTelemetryConfig({ ...endpoint, OTEL_SDK_DISABLED: 'true' }, 'x').tracing).toBeUndefined();
    expect(parseTelemetryConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' }, 'x').tracing).toBeUndefined();
  });

  it.each([
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://c:4317' }, 'OTEL_EXPORTER_OTLP_ENDPOINT'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_SAMPLER: 'sometimes' }, 'OTEL_TRACES_SAMPLER'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_SAMPLER_ARG: '2' }, 'OTEL_TRACES_SAMPLER_ARG'],
    [
      { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL',
    ],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_EXPORTER: 'zipkin' }, 'OTEL_TRACES_EXPORTER'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_BSP_SCHEDULE_DELAY: 'soon' }, 'OTEL_BSP_SCHEDULE_DELAY'],
    [{ TALON_METRICS_PORT: '70000' }, 'TALON_METRICS_PORT'],
    [{ TALON_METRICS_PORT: '9464', TALON_METRICS_HOST: '0.0.0.0' }, 'TALON_METRICS_HOST'],
    [{ TALON_METRICS_PORT: '9464', TALON_METRICS_TOKEN: 'short' }, 'TALON_METRICS_TOKEN'],
  ])('refuses %j naming %s', (env, name) => {
    let thrown: unknown;
    try {
      parseTelemetryConfig(env, 'x');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TelemetryConfigError);
    expect((thrown as TelemetryConfigError).message).toContain(name);
  });

  it('binds metrics to loopback by default and beyond it only with a token', () => {
    expect(parseTelemetryConfig({ TALON_METRICS_PORT: '9464' }, 'x').metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
    });
    expect(
      parseTelemetryConfig(
        {
          TALON_METRICS_PORT: '9464',
          TALON_METRICS_HOST: '0.0.0.0',
          TALON_METRICS_TOKEN: 'a-long-enough-token',
        },
        'x',
      ).metrics,
    ).toEqual({ port: 9464, host: '0.0.0.0', token: 'a-long-enough-token' });
  });
});
