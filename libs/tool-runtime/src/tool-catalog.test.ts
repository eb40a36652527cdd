import { describe, expect, it } from '@jest/globals';
import type { ToolAnnouncement, ToolDefinition } from '@talon/contracts';
import { definition } from '../test/support/tool-definition.js';
import { ToolCatalog } from './tool-catalog.js';

function announcement(instanceId: string, tools: ToolDefinition[], ttlMs = 1000): ToolAnnouncement {
  return { instanceId, service: 'tool-worker', domain: 'orchestrator', tools, ttlMs };
}

describe('ToolCatalog', () => {
  it('adds a new worker’s tools and keeps one entry per tool across replicas', () => {
    const catalog = new ToolCatalog();
    const changes: string[][] = [];
    catalog.onChange((change) => changes.push(change.added));
    catalog.announce(announcement('w1', [definition('echo'), definition('time')]), 0);
    catalog.announce(announcement('w2', [definition('echo')]), 0);
    expect(catalog.list().map((entry) => entry.definition.name)).toEqual(['echo', 'time']);
    expect(catalog.instancesOf('echo').sort()).toEqual(['w1', 'w2']);
    expect(changes).toEqual([['echo', 'time']]);
  });

  it('drops a dead instance at its TTL and the tool when no instance is left', () => {
    const catalog = new ToolCatalog();
    catalog.announce(announcement('w1', [definition('echo'), definition('time')], 1000), 0);
    catalog.announce(announcement('w2', [definition('echo')], 1000), 500);
    expect(catalog.expire(1200)).toEqual(['w1']);
    expect(catalog.instancesOf('echo')).toEqual(['w2']);
    expect(catalog.get('time')).toBeUndefined();
    catalog.expire(1600);
    expect(catalog.list()).toEqual([]);
  });

  it('a fresh announcement extends the TTL and replaces the instance’s tool set', () => {
    const catalog = new ToolCatalog();
    catalog.announce(announcement('w1', [definition('echo'), definition('time')], 1000), 0);
    catalog.announce(announcement('w1', [definition('echo')], 1000), 900);
    expect(catalog.expire(1500)).toEqual([]);
    expect(catalog.get('time')).toBeUndefined();
    expect(catalog.instancesOf('echo')).toEqual(['w1']);
  });

  it('withdraw removes an instance at once', () => {
    const catalog = new ToolCatalog();
    catalog.announce(announcement('w1', [definition('echo')]), 0);
    catalog.withdraw('w1');
    expect(catalog.get('echo')).toBeUndefined();
  });

  it('refuses a dynamic tool named like a built-in or a local tool, and lists the conflict', () => {
    const catalog = new ToolCatalog();
    catalog.registerLocal({ definition: definition('tool_info'), execute: async () => ({}) });
    catalog.announce(announcement('w1', [definition('echo')]), 0);
    catalog.announce(
      announcement('runner', [
        definition('echo', 'wasm', 'container'),
        definition('tool_info', 'mcp', 'container'),
        definition('stats', 'wasm', 'container'),
      ]),
      0,
    );
    expect(catalog.get('echo')!.definition.source).toBe('builtin');
    expect(catalog.get('tool_info')!.location).toBe('local');
    expect(catalog.get('stats')!.definition.source).toBe('wasm');
    expect(catalog.conflicts()).toEqual([
      { instanceId: 'runner', name: 'echo', reason: 'protected' },
      { instanceId: 'runner', name: 'tool_info', reason: 'protected' },
    ]);
  });

  it('refuses the same dynamic name from a different source', () => {
    const catalog = new ToolCatalog();
    catalog.announce(announcement('runner', [definition('weather', 'wasm', 'container')]), 0);
    catalog.announce(announcement('worker', [definition('weather', 'mcp', 'orchestrator')]), 0);
    expect(catalog.get('weather')!.definition.source).toBe('wasm');
    expect(catalog.conflicts()).toEqual([{ instanceId: 'worker', name: 'weather', reason: 'taken' }]);
  });
});
