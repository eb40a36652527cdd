import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

// No Docker engine runs here, so the compose file and Dockerfile are checked by reading them.
const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as {
  services: Record<
    string,
    {
      build?: { args?: Record<string, string> };
      environment?: Record<string, string>;
      deploy?: { replicas?: number };
      command?: string[];
      volumes?: string[];
      security_opt?: string[];
      privileged?: boolean;
    }
  >;
  volumes: Record<string, unknown>;
};
const dockerfile = readFileSync('Dockerfile', 'utf8');

describe('docker-compose.yml', () => {
  it('runs NATS with JetStream on a volume, PostgreSQL, and the four services', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'nats',
      'orchestrator',
      'postgres',
      'skill-service',
      'tool-worker',
      'wasm-runner',
    ]);
    expect(compose.services.nats!.command).toContain('-js');
    expect(compose.services.nats!.volumes).toContain('nats-data:/data');
    expect(compose.volumes).toHaveProperty('postgres-data');
  });

  it('builds each service from the Dockerfile with its APP and points it at NATS', () => {
    for (const name of ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner']) {
      expect(compose.services[name]!.build?.args?.APP).toBe(name);
      expect(compose.services[name]!.environment?.NATS_URL).toBe('nats://nats:4222');
    }
    expect(compose.services.orchestrator!.environment?.DATABASE_URL).toMatch(
      /^postgres:\/\/.+@postgres:5432\//,
    );
  });

  it('scales tool-workers', () => {
    expect(compose.services['tool-worker']!.deploy?.replicas).toBeGreaterThanOrEqual(2);
  });

  it('gives the wasm-runner what bubblewrap needs and nothing more (no privileged mode)', () => {
    const runner = compose.services['wasm-runner']!;
    expect(runner.security_opt).toEqual([
      'seccomp=unconfined',
      'apparmor=unconfined',
      'systempaths=unconfined',
    ]);
    expect(runner.privileged).toBeUndefined();
    for (const [name, service] of Object.entries(compose.services))
      if (name !== 'wasm-runner') expect(service.security_opt).toBeUndefined();
  });
});

describe('Dockerfile', () => {
  it('is multi-stage and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/apps\/\$APP\/dist\/main\.js/);
  });

  it('installs bubblewrap for the wasm-runner', () => {
    expect(dockerfile).toMatch(/APP" = "wasm-runner".*apt-get install[^\n]*\bbubblewrap\b/);
  });
});
