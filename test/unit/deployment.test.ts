import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { deployNatsConfig, natsPasswordEnvName } from '@talon/auth';
import { NATS_USERS } from '@talon/contracts';
import { parseSeccompProfile } from '@talon/seccomp';
import { serviceNodeOptions } from '@talon/service-runtime';

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

  it('starts each service with the Node flags `talon up` gives it, which an operator can replace', () => {
    for (const name of ['orchestrator', 'skill-service', 'tool-worker', 'wasm-runner']) {
      const setting = compose.services[name]!.environment?.NODE_OPTIONS;
      const byDefault = setting === undefined ? undefined : /^\$\{[A-Z_]+:-(.*)\}$/.exec(setting)?.[1];
      expect(byDefault).toBe(serviceNodeOptions(name));
    }
    expect(serviceNodeOptions('orchestrator')).toMatch(/--max-semi-space-size=\d+/);
  });

  it('runs 2 orchestrators, 3 tool-workers and 2 wasm-runners by default, one skill-service', () => {
    expect(compose.services.orchestrator!.deploy?.replicas).toBe(2);
    expect(compose.services['tool-worker']!.deploy?.replicas).toBe(3);
    expect(compose.services['wasm-runner']!.deploy?.replicas).toBe(2);
    expect(compose.services['skill-service']!.deploy?.replicas ?? 1).toBe(1);
  });

  it("shares a named volume between replicas only where every writer is atomic: the wasm-runners' workspace", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if ((service.deploy?.replicas ?? 1) < 2) continue;
      const named = (service.volumes ?? []).filter((volume) => !/^[./]/.test(volume));
      // The runners share one workspace on purpose (docs/replicas.md); nothing else is shared.
      expect({ name, named }).toEqual({
        name,
        named: name === 'wasm-runner' ? ['wasm-state:/var/lib/talon'] : [],
      });
    }
  });

  it('publishes a host port for every orchestrator replica, and lets each one be named in the Host header', () => {
    const orchestrator = compose.services.orchestrator!;
    const replicas = orchestrator.deploy!.replicas!;
    const allowed = orchestrator.environment!.TALON_HTTP_ALLOWED_HOSTS!.split(',');
    for (const port of orchestrator.ports!) {
      const [, first, last] = /^127\.0\.0\.1:(\d+)(?:-(\d+))?:\d+$/.exec(port)!;
      const count = Number(last ?? first) - Number(first) + 1;
      expect(count).toBe(replicas);
    }
    const http = /^127\.0\.0\.1:(\d+)-(\d+):8080$/.exec(orchestrator.ports![0]!)!;
    for (let port = Number(http[1]); port <= Number(http[2]); port++) {
      expect(allowed).toContain(`127.0.0.1:${port}`);
      expect(allowed).toContain(`localhost:${port}`);
    }
  });

  it('gives the wasm-runner what bubblewrap needs and nothing more (no privileged mode)', () => {
    const runner = compose.services['wasm-runner']!;
    expect(runner.security_opt).toEqual([
      'seccomp=./deploy/seccomp/wasm-runner.json',
      'apparmor=unconfined',
      'systempaths=unconfined',
    ]);
    expect(runner.privileged).toBeUndefined();
    for (const [name, service] of Object.entries(compose.services))
      if (name !== 'wasm-runner') expect(service.security_opt).toBeUndefined();
  });

  it("ships a seccomp allowlist with bubblewrap's calls and without the ones no sandbox needs", () => {
    const profile = parseSeccompProfile(JSON.parse(readFileSync('deploy/seccomp/wasm-runner.json', 'utf8')));
    expect(profile).toMatchObject({ defaultAction: 'SCMP_ACT_ERRNO', architectures: ['SCMP_ARCH_X86_64'] });
    const allowed = new Set(
      profile.syscalls
        .filter((rule) => rule.action === 'SCMP_ACT_ALLOW' && rule.args.length === 0)
        .flatMap((rule) => rule.names),
    );
    for (const name of ['clone', 'clone3', 'unshare', 'mount', 'umount2', 'pivot_root', 'read', 'execve'])
      expect(allowed).toContain(name);
    for (const name of [
      'ptrace',
      'keyctl',
      'bpf',
      'io_uring_setup',
      'setns',
      'open_by_handle_at',
      'kexec_load',
    ])
      expect(profile.syscalls.some((rule) => rule.names.includes(name))).toBe(false);
  });
});

describe('docker-compose.yml is safe by default', () => {
  it('does not publish NATS, and publishes the APIs on loopback only, with authentication on', () => {
    expect(compose.services.nats!.ports).toBeUndefined();
    expect(compose.services.orchestrator!.ports).toEqual([
      '127.0.0.1:8080-8081:8080',
      '127.0.0.1:50051-50052:50051',
    ]);
    // No port anywhere on every address (a bare `8080:8080` or `0.0.0.0:…` would be).
    for (const service of Object.values(compose.services))
      for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    const orchestrator = compose.services.orchestrator!.environment!;
    expect(orchestrator.TALON_AUTH).toBeUndefined();
    expect(orchestrator.TALON_SANDBOX).toBeUndefined();
    expect(compose.services['wasm-runner']!.environment!.TALON_SANDBOX).toBeUndefined();
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

  it('requires the secrets key and bootstrap token, so that no orchestrator replica writes local state', () => {
    const orchestrator = compose.services.orchestrator!;
    expect(orchestrator.environment!.TALON_SECRETS_KEY).toMatch(/^\$\{TALON_SECRETS_KEY:\?/);
    expect(orchestrator.environment!.TALON_BOOTSTRAP_TOKEN).toMatch(/^\$\{TALON_BOOTSTRAP_TOKEN:\?/);
    expect(orchestrator.environment!.DATABASE_URL).toMatch(/^postgres:\/\//);
    expect(orchestrator.volumes).toBeUndefined();
    expect(readFileSync('.gitignore', 'utf8')).toMatch(/^\.env$/m);
    expect(readFileSync('.dockerignore', 'utf8')).toMatch(/^\.env$/m);
  });
});

describe('Dockerfile', () => {
  it('is multi-stage and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/apps\/\$APP\/dist\/bundle\/main\.mjs/);
  });

  it('installs bubblewrap for the wasm-runner', () => {
    expect(dockerfile).toMatch(/APP" = "wasm-runner".*apt-get install[^\n]*\bbubblewrap\b/);
  });
});
