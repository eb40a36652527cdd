import { describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseStdioMcpConfig } from './stdio-mcp-config.js';

describe('parseStdioMcpConfig', () => {
  it('defaults to the install registry, the state dir files and a cap of 8, idle per server', () => {
    const config = parseStdioMcpConfig({}, '/var/talon/state', '/work');
    expect(config).toMatchObject({
      maxRunning: 8,
      snapshotFile: '/var/talon/state/mcp-tools.json',
      dataDir: '/var/talon/state/mcp-data',
    });
    expect(config.registryDir).toMatch(/registry\/mcp-servers$/);
    expect(config.idleStopMs).toBeUndefined();
    expect(config.userConfigFile).toBeUndefined();
  });

  it('reads TALON_MCP_* settings, resolving paths against the working directory', () => {
    const config = parseStdioMcpConfig(
      {
        TALON_MCP_CONFIG: 'mcp.json',
        TALON_MCP_IDLE_MS: '0',
        TALON_MCP_MAX_RUNNING: '2',
        TALON_MCP_REGISTRY_DIR: 'reg',
      },
      '/state',
      '/work',
    );
    expect(config).toMatchObject({
      userConfigFile: '/work/mcp.json',
      idleStopMs: 0,
      maxRunning: 2,
      registryDir: '/work/reg',
    });
  });

  it('skips a missing default registry but keeps an explicit one', async () => {
    const root = await mkdtemp(join(tmpdir(), 'talon-no-registry-'));
    try {
      expect(parseStdioMcpConfig({ TALON_ROOT: root }, '/state', '/work').registryDir).toBeUndefined();
      expect(
        parseStdioMcpConfig({ TALON_ROOT: root, TALON_MCP_REGISTRY_DIR: join(root, 'x') }, '/state')
          .registryDir,
      ).toBe(join(root, 'x'));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('refuses bad numbers with the variable named', () => {
    expect(() => parseStdioMcpConfig({ TALON_MCP_IDLE_MS: '-5' }, '/state')).toThrow(/TALON_MCP_IDLE_MS/);
    expect(() => parseStdioMcpConfig({ TALON_MCP_IDLE_MS: 'soon' }, '/state')).toThrow(/TALON_MCP_IDLE_MS/);
    expect(() => parseStdioMcpConfig({ TALON_MCP_MAX_RUNNING: '0' }, '/state')).toThrow(
      /TALON_MCP_MAX_RUNNING/,
    );
  });
});
