import { describe, expect, it } from '@jest/globals';
import type { SandboxProfile } from '@talon/contracts';
import { summarizeSandbox } from './sandbox-summary.js';

const limits = {
  cpuSeconds: 60,
  addressSpaceBytes: 2 ** 31,
  maxProcesses: 256,
  maxFileBytes: 2 ** 30,
  maxOpenFiles: 1024,
  tmpBytes: 2 ** 26,
};

describe('summarizeSandbox', () => {
  it('says what a shell command may write and that it has no network', () => {
    const profile: SandboxProfile = {
      readPaths: [],
      writePaths: ['/srv/ws'],
      network: { mode: 'none' },
      limits,
    };
    expect(summarizeSandbox(profile, { command: 'make' })).toBe(
      'runs sandboxed: writes /srv/ws; reads the system and nothing; no network',
    );
  });

  it('names the hosts a call asks for, or the hosts a server is granted', () => {
    const shell: SandboxProfile = {
      readPaths: [],
      writePaths: ['/srv/ws'],
      network: { mode: 'none' },
      limits,
    };
    expect(summarizeSandbox(shell, { command: 'npm ci', networkHosts: ['registry.npmjs.org'] })).toContain(
      "network only to registry.npmjs.org through Talon's proxy",
    );
    const server: SandboxProfile = {
      readPaths: ['/opt/talon/node_modules'],
      writePaths: [],
      network: { mode: 'proxy', hosts: ['api.github.com'] },
      limits,
    };
    expect(summarizeSandbox(server, {})).toBe(
      "runs sandboxed: writes nothing; reads the system and /opt/talon/node_modules; network only to api.github.com through Talon's proxy",
    );
  });
});
