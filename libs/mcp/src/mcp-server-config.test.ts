import { describe, expect, it } from '@jest/globals';
import { TalonError } from '@talon/errors';
import { expandConfigVariables } from './mcp-config-variables.js';
import { DEFAULT_MCP_EFFECTS, parseMcpServerConfig } from './mcp-server-config.js';

const stdio = {
  type: 'stdio',
  command: '${NODE}',
  args: ['${TALON_ROOT}/node_modules/x/index.js', '--root=${TALON_WORKSPACE}'],
};
const variables = { NODE: '/usr/bin/node', TALON_ROOT: '/srv/talon', TALON_WORKSPACE: '/work/space' };

function errorOf(run: () => unknown): TalonError {
  try {
    run();
  } catch (error) {
    if (TalonError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a TalonError');
}

describe('parseMcpServerConfig', () => {
  it('fills defaults and expands variables in command, args, env and url', () => {
    const definition = parseMcpServerConfig(
      { name: 'x', transport: { ...stdio, env: { HOME_DIR: '${TALON_ROOT}/home' } } },
      { variables },
    );
    expect(definition.transport).toEqual({
      type: 'stdio',
      command: '/usr/bin/node',
      args: ['/srv/talon/node_modules/x/index.js', '--root=/work/space'],
      env: { HOME_DIR: '/srv/talon/home' },
    });
    expect(definition).toMatchObject({
      displayName: 'x',
      effects: [...DEFAULT_MCP_EFFECTS],
      approval: 'unless_auto_approved',
      auth: { type: 'none' },
    });
    expect(definition.restart.maxRestarts).toBeGreaterThan(0);
    const remote = parseMcpServerConfig(
      {
        name: 'r',
        transport: { type: 'sse', url: 'https://${HOST}/sse', headers: { 'x-team': '${TEAM}' } },
        auth: { type: 'oauth', client_name: 'T', scopes: ['a'] },
      },
      { variables: { HOST: 'mcp.example.org', TEAM: 'blue' } },
    );
    expect(remote.transport).toEqual({
      type: 'sse',
      url: 'https://mcp.example.org/sse',
      headers: { 'x-team': 'blue' },
    });
    expect(remote.auth).toEqual({ type: 'oauth', clientName: 'T', scopes: ['a'] });
  });

  it('refuses an unknown variable instead of expanding it to nothing', () => {
    const error = errorOf(() =>
      parseMcpServerConfig(
        { name: 'x', transport: { type: 'stdio', command: 'node', args: ['${TALON_WORKSPCE}'] } },
        { variables, source: 'fs.json' },
      ),
    );
    expect(error.code).toBe('SCHEMA_VIOLATION');
    expect(error.message).toContain('TALON_WORKSPCE');
    expect(error.message).toContain('fs.json');
  });

  it('keeps $${NAME} as a literal', () => {
    expect(expandConfigVariables('a $${NODE} b ${NODE}', variables, 'f')).toBe('a ${NODE} b /usr/bin/node');
  });

  it.each([
    ['no transport', { name: 'x' }],
    ['a bad server name', { name: 'has.dot', transport: stdio }],
    ['an unknown field', { name: 'x', transport: stdio, comand: 'typo' }],
    ['a non-http url', { name: 'x', transport: { type: 'streamable-http', url: 'file:///etc/passwd' } }],
    ['an unknown effect', { name: 'x', transport: stdio, effects: ['teleport'] }],
    ['a bearer auth without secret', { name: 'x', transport: stdio, auth: { type: 'bearer' } }],
    ['a negative idle time', { name: 'x', transport: stdio, idle_stop_ms: -1 }],
    ['not an object', 'everything'],
  ])('refuses %s with SCHEMA_VIOLATION and the violations', (_label, raw) => {
    const error = errorOf(() => parseMcpServerConfig(raw, { variables }));
    expect(error.code).toBe('SCHEMA_VIOLATION');
    expect((error.details as { violations: string[] }).violations.length).toBeGreaterThan(0);
  });
});
