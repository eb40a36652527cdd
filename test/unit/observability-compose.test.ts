import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { parseTelemetryConfig } from '@talon/telemetry';

// No Docker engine runs here: the observability profile is checked by reading the files.
interface ComposeService {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  configs?: Array<{ source: string; target: string }>;
}
const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as {
  services: Record<string, ComposeService>;
  configs: Record<string, { environment?: string }>;
};
const prometheus = parse(readFileSync('deploy/prometheus.yml', 'utf8')) as {
  scrape_configs: Array<{
    job_name: string;
    authorization?: { credentials_file?: string };
    static_configs?: Array<{ targets: string[] }>;
    dns_sd_configs?: Array<{ names: string[]; port: number }>;
  }>;
};
const TALON = ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner'];

describe('the observability profile', () => {
  it('adds Jaeger and Prometheus only under the profile, published on loopback', () => {
    for (const name of ['jaeger', 'prometheus']) {
      const service = compose.services[name]!;
      expect(service.profiles).toEqual(['observability']);
      for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
    expect(compose.services.jaeger!.environment?.COLLECTOR_OTLP_ENABLED).toBe('true');
    expect(compose.services.prometheus!.volumes).toContain(
      './deploy/prometheus.yml:/etc/prometheus/prometheus.yml:ro',
    );
    expect(compose.services.prometheus!.configs).toEqual([
      { source: 'metrics-token', target: '/etc/prometheus/metrics-token' },
    ]);
    expect(compose.configs['metrics-token']).toEqual({ environment: 'TALON_METRICS_TOKEN' });
  });

  it('gives every Talon service a metrics listener that demands the token, and tracing off by default', () => {
    for (const name of TALON) {
      const environment = compose.services[name]!.environment!;
      expect(environment.TALON_METRICS_PORT).toBe('9464');
      expect(environment.TALON_METRICS_TOKEN).toMatch(/^\$\{TALON_METRICS_TOKEN:\?/);
      expect(environment.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('${OTEL_EXPORTER_OTLP_ENDPOINT:-}');
      // The same variables as compose would resolve them pass the service's own config check.
      const resolved = {
        TALON_METRICS_PORT: environment.TALON_METRICS_PORT!,
        TALON_METRICS_HOST: environment.TALON_METRICS_HOST!,
        TALON_METRICS_TOKEN: 'a-token-from-compose-env-0123456789',
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
      };
      expect(parseTelemetryConfig(resolved, `talon-${name}`)).toEqual({
        metrics: { port: 9464, host: '0.0.0.0', token: resolved.TALON_METRICS_TOKEN },
      });
    }
  });

  it('scrapes every service with the token, each tool-worker replica included', () => {
    const targets = prometheus.scrape_configs.flatMap(
      (job) => job.static_configs?.flatMap((c) => c.targets) ?? [],
    );
    expect(targets.sort()).toEqual(['orchestrator:9464', 'skill-service:9464', 'wasm-runner:9464']);
    const workers = prometheus.scrape_configs.find((job) => job.dns_sd_configs)!;
    expect(workers.dns_sd_configs).toEqual([{ names: ['tool-worker'], type: 'A', port: 9464 }]);
    for (const job of prometheus.scrape_configs)
      expect(job.authorization?.credentials_file).toBe('/etc/prometheus/metrics-token');
  });
});
