import { describe, expect, it } from '@jest/globals';
import { InvalidToolNameError } from './errors/invalid-tool-name-error.js';
import { assertValidToolName, displayName, isValidToolName, toLlmToolName } from './tool-name.js';

describe('tool names', () => {
  it('accepts what LLM providers accept and nothing else', () => {
    expect(isValidToolName('web_fetch')).toBe(true);
    expect(isValidToolName('a-B_9')).toBe(true);
    expect(isValidToolName('x'.repeat(64))).toBe(true);
    for (const bad of ['', 'x'.repeat(65), 'a.b', 'a b', 'ünï', 'a\nb', 'tool/x']) {
      expect(isValidToolName(bad)).toBe(false);
      expect(() => assertValidToolName(bad)).toThrow(InvalidToolNameError);
    }
  });

  it('maps an MCP tool to server_tool for the model and server.tool for people', () => {
    expect(toLlmToolName('github', 'create_issue', new Set())).toBe('github_create_issue');
    expect(toLlmToolName('my.server', 'read file', new Set())).toBe('my_server_read_file');
    expect(displayName('github', 'create_issue')).toBe('github.create_issue');
  });

  it('adds a deterministic hash suffix on collision', () => {
    const taken = new Set(['a_b_c']);
    const first = toLlmToolName('a', 'b.c', taken);
    const again = toLlmToolName('a', 'b.c', taken);
    expect(first).toMatch(/^a_b_c_[0-9a-f]{8}$/);
    expect(again).toBe(first);
    // The other pair that sanitises to the same text gets a different suffix.
    expect(toLlmToolName('a.b', 'c', taken)).not.toBe(first);
    expect(taken.size).toBe(1);
  });

  it('cuts overlong names to 64 characters with a suffix that keeps them distinct', () => {
    const server = 's'.repeat(40);
    const one = toLlmToolName(server, `${'t'.repeat(40)}_one`, new Set());
    const two = toLlmToolName(server, `${'t'.repeat(40)}_two`, new Set());
    expect(one).toHaveLength(64);
    expect(isValidToolName(one)).toBe(true);
    expect(one).not.toBe(two);
  });

  it('never returns a taken name, even when the suffixed name is taken too', () => {
    const first = toLlmToolName('a', 'b.c', new Set(['a_b_c']));
    const second = toLlmToolName('a', 'b.c', new Set(['a_b_c', first]));
    expect(second).not.toBe(first);
    expect(isValidToolName(second)).toBe(true);
  });
});
