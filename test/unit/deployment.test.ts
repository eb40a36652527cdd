import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { deployNatsConfig, natsPasswordEnvName } from '@talon/auth';
import { NATS_USERS } from '@talon/contracts';

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
      ports?: string[];
      security_opt?: string[];
      privileged?: boolean;
    }
  >;
  volumes: Record<string, unknown>;
};
const dockerfile = readFileSync('Dockerfile', 'utf8');

describe('docker-compose.yml', () => {
  it('runs NATS with JetStream on a volume, PostgreSQL, and the four services', () => {
    // Services behind a profile (observability) start only when asked for.
    const always = Object.entries(compose.services).filter(([, service]) => !('profiles' in service));
    expect(always.map(([name]) => name).sort()).toEqual([
      'nats',
      'orchestrator',
      'postgres',
      'skill-service',
      'tool-worker',
      'wasm-runner',
    ]);
    expect(compose.services.nats!.command).toEqual(['-c', '/etc/nats/nats-server.conf']);
    expect(compose.services.nats!.volumes).toContain('nats-data:/data');
    expect(readFileSync('deploy/nats-server.conf', 'utf8')).toContain('jetstream {\n  store_dir: "/data"');
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

describe('docker-compose.yml is safe by default', () => {
  it('does not publish NATS, and publishes the APIs on loopback only', () => {
    expect(compose.services.nats!.ports).toBeUndefined();
    expect(compose.services.orchestrator!.ports).toEqual(['127.0.0.1:8080:8080', '127.0.0.1:50051:50051']);
    for (const name of ['postgres', 'skill-service', 'tool-worker', 'wasm-runner'])
      expect(compose.services[name]!.ports).toBeUndefined();
  });

  it('mounts the NATS config generated from the permission table, unchanged', () => {
    expect(compose.services.nats!.volumes).toContain(
      './deploy/nats-server.conf:/etc/nats/nats-server.conf:ro',
    );
    expect(readFileSync('deploy/nats-server.conf', 'utf8')).toBe(deployNatsConfig());
  });

  it('signs every service in to NATS as itself, with its password from .env', () => {
    for (const name of ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner']) {
      const environment = compose.services[name]!.environment!;
      expect(environment.NATS_USER).toBe(name);
      expect(environment.NATS_PASSWORD).toBe(
        `\${${natsPasswordEnvName(name as never)}:?run node scripts/compose-env.mjs}`,
      );
    }
    for (const user of NATS_USERS)
      expect(compose.services.nats!.environment![natsPasswordEnvName(user)]).toMatch(/^\$\{[A-Z_]+:\?/);
  });

  it('requires the secrets key and bootstrap token, and keeps the state dir on a volume', () => {
    const orchestrator = compose.services.orchestrator!;
    expect(orchestrator.environment!.TALON_SECRETS_KEY).toMatch(/^\$\{TALON_SECRETS_KEY:\?/);
    expect(orchestrator.environment!.TALON_BOOTSTRAP_TOKEN).toMatch(/^\$\{TALON_BOOTSTRAP_TOKEN:\?/);
    expect(orchestrator.volumes).toContain('orchestrator-state:/var/lib/talon');
    expect(compose.volumes).toHaveProperty('orchestrator-state');
    expect(readFileSync('.gitignore', 'utf8')).toMatch(/^\.env$/m);
    expect(readFileSync('.dockerignore', 'utf8')).toMatch(/^\.env$/m);
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
