import { describe, expect, it } from '@jest/globals';
import { DEFAULT_SANDBOX_LIMITS, sandboxProfile } from './sandbox-profile.js';
import { sandboxEnvironment } from './sandbox-environment.js';

describe('sandboxProfile', () => {
  it('defaults to no paths, no network and the default limits', () => {
    expect(sandboxProfile()).toEqual({
      readPaths: [],
      writePaths: [],
      network: { mode: 'none' },
      limits: DEFAULT_SANDBOX_LIMITS,
    });
  });

  it('refuses relative paths, "..", bad host patterns and limits out of range with typed errors', () => {
    for (const input of [
      { readPaths: ['relative/path'] },
      { writePaths: ['/srv/../etc'] },
      { network: { mode: 'proxy' as const, hosts: ['exa mple.com'] } },
      { network: { mode: 'proxy' as const, hosts: [] } },
      { limits: { maxProcesses: 0 } },
      { limits: { addressSpaceBytes: 1024 } },
    ])
      expect(() => sandboxProfile(input)).toThrow(expect.objectContaining({ code: 'SCHEMA_VIOLATION' }));
  });
});

describe('sandboxEnvironment', () => {
  it('starts from nothing and drops Talon wiring and cloud credentials even when a definition sets them', () => {
    const env = sandboxEnvironment({
      inherited: {
        NATS_URL: 'nats://u:p@h',
        DATABASE_URL: 'postgres://x',
        TERM: 'xterm',
        SECRET: 'x',
        HOME: '/root',
      },
      extra: {
        NATS_PASSWORD: 'p',
        TALON_BOOTSTRAP_TOKEN: 't',
        AWS_SECRET_ACCESS_KEY: 'a',
        LD_PRELOAD: '/x.so',
        NODE_OPTIONS: '--require /x',
        PATH: '/evil',
        MEMORY_FILE_PATH: '/data/m.jsonl',
      },
    });
    expect(env).toEqual({
      PATH: '/usr/local/bin:/usr/bin:/bin',
      HOME: '/tmp',
      TMPDIR: '/tmp',
      USER: 'sandbox',
      LOGNAME: 'sandbox',
      SHELL: '/bin/sh',
      LANG: 'C.UTF-8',
      TERM: 'xterm',
      MEMORY_FILE_PATH: '/data/m.jsonl',
    });
  });

  it('points every proxy variable at the bridge when the network is proxied', () => {
    const env = sandboxEnvironment({ proxyUrl: 'http://127.0.0.1:3128' });
    for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'])
      expect(env[name]).toBe('http://127.0.0.1:3128');
    expect(env.NO_PROXY).toBe('');
  });
});
