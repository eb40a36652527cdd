import { describe, expect, it } from '@jest/globals';
import type { ToolDefinition, ToolSource } from '@talon/contracts';
import { InvalidToolDefinitionError } from './errors/invalid-tool-definition-error.js';
import { InvalidToolNameError } from './errors/invalid-tool-name-error.js';
import { InvalidToolSchemaError } from './errors/invalid-tool-schema-error.js';
import { ToolNameConflictError } from './errors/tool-name-conflict-error.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

function tool(
  name: string,
  source: ToolSource,
  parameters: Record<string, unknown> = { type: 'object' },
): Tool {
  const definition: ToolDefinition = {
    name,
    description: `${name} tool`,
    parameters,
    effects: [],
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source,
    sensitiveParams: [],
    idempotent: true,
  };
  return { definition, execute: async () => source };
}

function conflictOf(action: () => void): ToolNameConflictError {
  try {
    action();
  } catch (error) {
    if (error instanceof ToolNameConflictError) return error;
    throw error;
  }
  throw new Error('expected a ToolNameConflictError');
}

describe('ToolRegistry', () => {
  it('registers, looks up and lists tools in order', () => {
    const registry = new ToolRegistry();
    registry.register(tool('echo', 'builtin'));
    registry.register(tool('gh_issue', 'mcp'));
    expect(registry.has('echo')).toBe(true);
    expect(registry.get('gh_issue')?.definition.source).toBe('mcp');
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list().map((entry) => entry.definition.name)).toEqual(['echo', 'gh_issue']);
    expect(registry.definitions()).toHaveLength(2);
    expect(registry.size).toBe(2);
  });

  it('refuses a dynamic tool with a built-in name as protected, for every dynamic source', () => {
    const registry = new ToolRegistry();
    const original = tool('echo', 'builtin');
    registry.register(original);
    for (const source of ['wasm', 'mcp', 'installed'] as const) {
      const error = conflictOf(() => registry.register(tool('echo', source)));
      expect(error.code).toBe('NAME_CONFLICT');
      expect(error.details).toEqual({ name: 'echo', reason: 'protected' });
    }
    expect(registry.get('echo')).toBe(original);
  });

  it('refuses a dynamic tool whose name another dynamic tool took, even with replace for a built-in', () => {
    const registry = new ToolRegistry();
    const first = tool('weather', 'wasm');
    registry.register(first);
    const error = conflictOf(() => registry.register(tool('weather', 'mcp')));
    expect(error.details).toEqual({ name: 'weather', reason: 'taken' });
    expect(registry.get('weather')).toBe(first);
    registry.register(tool('echo', 'builtin'));
    expect(conflictOf(() => registry.register(tool('echo', 'wasm'), { replace: true })).details.reason).toBe(
      'protected',
    );
  });

  it('replaces a dynamic tool only when asked', () => {
    const registry = new ToolRegistry();
    registry.register(tool('weather', 'wasm'));
    const upgraded = tool('weather', 'wasm');
    registry.register(upgraded, { replace: true });
    expect(registry.get('weather')).toBe(upgraded);
  });

  it('a built-in registering after a dynamic tool took its name is refused, not silently merged', () => {
    const registry = new ToolRegistry();
    registry.register(tool('time', 'mcp'));
    expect(conflictOf(() => registry.register(tool('time', 'builtin'))).details.reason).toBe('taken');
  });

  it('protects reserved names that no tool here implements', () => {
    const registry = new ToolRegistry({ reservedNames: ['memory_search'] });
    expect(registry.isProtected('memory_search')).toBe(true);
    expect(conflictOf(() => registry.register(tool('memory_search', 'installed'))).details.reason).toBe(
      'protected',
    );
    registry.register(tool('memory_search', 'builtin'));
    expect(registry.has('memory_search')).toBe(true);
  });

  it('unregisters dynamic tools, and built-ins only with force while their name stays protected', () => {
    const registry = new ToolRegistry();
    registry.register(tool('echo', 'builtin'));
    registry.register(tool('weather', 'wasm'));
    expect(registry.unregister('weather')).toBe(true);
    expect(registry.unregister('weather')).toBe(false);
    expect(conflictOf(() => registry.unregister('echo')).details.reason).toBe('protected');
    expect(registry.has('echo')).toBe(true);
    expect(registry.unregister('echo', { force: true })).toBe(true);
    expect(conflictOf(() => registry.register(tool('echo', 'mcp'))).details.reason).toBe('protected');
  });

  it('rejects names LLM providers refuse', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(tool('github.create', 'mcp'))).toThrow(InvalidToolNameError);
    expect(() => registry.register(tool('', 'mcp'))).toThrow(InvalidToolNameError);
    expect(registry.size).toBe(0);
  });

  it('rejects a definition that breaks the contract', () => {
    const registry = new ToolRegistry();
    const badEffect = tool('bad_effect', 'wasm');
    (badEffect.definition as { effects: string[] }).effects = ['launch_missiles'];
    expect(() => registry.register(badEffect)).toThrow(InvalidToolDefinitionError);
    const badTimeout = tool('bad_timeout', 'wasm');
    badTimeout.definition.timeoutMs = 0;
    expect(() => registry.register(badTimeout)).toThrow(InvalidToolDefinitionError);
    expect(registry.size).toBe(0);
  });

  it('rejects a broken parameter schema at registration', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register(tool('bad', 'mcp', { type: 'strng' }))).toThrow(InvalidToolSchemaError);
    expect(() =>
      registry.register(tool('bad2', 'mcp', { type: 'object', properties: { a: { $ref: '#/nowhere' } } })),
    ).toThrow(InvalidToolSchemaError);
    expect(registry.has('bad')).toBe(false);
  });

  it('tolerates unknown keywords and formats common in MCP schemas', () => {
    const registry = new ToolRegistry();
    registry.register(
      tool('mcp_tool', 'mcp', {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        'x-internal': true,
        properties: { when: { type: 'string', format: 'made-up-format' } },
      }),
    );
    registry.register(
      tool('mcp_2020', 'mcp', {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { a: { type: 'integer' } },
      }),
    );
    expect(registry.size).toBe(2);
  });

  it('tells listeners about changes until they unsubscribe', () => {
    const registry = new ToolRegistry();
    const seen: string[] = [];
    const off = registry.onChange((change) => seen.push(`${change.kind}:${change.name}`));
    registry.register(tool('weather', 'wasm'));
    registry.unregister('weather');
    off();
    registry.register(tool('other', 'wasm'));
    expect(seen).toEqual(['registered:weather', 'unregistered:weather']);
  });

  it('tells when a tool arrives: at once when it is there, on its registration, or false after the wait', async () => {
    const registry = new ToolRegistry();
    registry.register(tool('present', 'mcp'));
    await expect(registry.whenRegistered('present', 10)).resolves.toBe(true);
    const arriving = registry.whenRegistered('arriving', 5_000);
    registry.register(tool('other', 'mcp'));
    registry.register(tool('arriving', 'mcp'));
    await expect(arriving).resolves.toBe(true);
    const started = Date.now();
    await expect(registry.whenRegistered('never', 40)).resolves.toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });
});
