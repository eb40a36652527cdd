import { describe, expect, it } from '@jest/globals';
import type { ToolDefinition } from '@talon/contracts';
import {
  attenuateTools,
  isToolAllowed,
  READ_ONLY_TOOL_WHITELIST,
  toolCeilingFor,
} from './tool-attenuation.js';

const tool = (name: string): ToolDefinition => ({
  name,
  description: name,
  parameters: {},
  effects: [],
  approval: 'never',
  timeoutMs: 1000,
  domain: 'orchestrator',
  source: 'builtin',
  sensitiveParams: [],
  idempotent: true,
});
const TOOLS = [
  'shell',
  'http_fetch',
  'file_write',
  'memory_search',
  'memory_read',
  'memory_write',
  'time',
  'json',
  'skill_install',
  'skill_list',
].map(tool);

describe('attenuateTools', () => {
  it('keeps every tool when all active skills are trusted, even if one declares allowed-tools', () => {
    const result = attenuateTools([{ name: 'review', trust: 'TRUSTED', allowedTools: ['file_read'] }], TOOLS);
    expect(result.kept.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    expect(result.removed).toEqual([]);
    expect(result.ceiling.mode).toBe('all');
    expect(result.explanation).toMatch(/allowed-tools .*informational/);
  });

  it('drops to the read-only whitelist when any active skill is installed, naming the cause', () => {
    const result = attenuateTools(
      [
        { name: 'review', trust: 'TRUSTED' },
        { name: 'weather', trust: 'INSTALLED', allowedTools: ['shell'] },
      ],
      TOOLS,
    );
    expect(result.kept.map((t) => t.name)).toEqual([
      'memory_search',
      'memory_read',
      'time',
      'json',
      'skill_list',
    ]);
    expect(result.removed.map((r) => r.name)).toEqual([
      'shell',
      'http_fetch',
      'file_write',
      'memory_write',
      'skill_install',
    ]);
    expect(result.removed[0]!.reason).toContain('"weather"');
    expect(result.ceiling).toEqual({
      mode: 'read_only',
      allowed: [...READ_ONLY_TOOL_WHITELIST],
      causedBy: ['weather'],
    });
    expect(result.explanation).toMatch(/5 kept, 5 removed/);
  });

  it('gives the orchestrator the same answer at dispatch', () => {
    const ceiling = toolCeilingFor([{ name: 'x', trust: 'INSTALLED' }]);
    expect(isToolAllowed('memory_tree', ceiling)).toBe(true);
    expect(isToolAllowed('shell', ceiling)).toBe(false);
    expect(isToolAllowed('Memory_Search', ceiling)).toBe(false);
    expect(isToolAllowed('shell', toolCeilingFor([]))).toBe(true);
  });
});
