import { describe, expect, it } from '@jest/globals';
import { assignMcpToolNames } from './mcp-tool-name.js';

const PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

describe('assignMcpToolNames', () => {
  it('names server_tool for the model and server.tool for people', () => {
    const names = assignMcpToolNames([{ server: 'everything', tool: 'get-sum' }]);
    expect(names.get('everything.get-sum')).toEqual({
      llmName: 'everything_get-sum',
      displayName: 'everything.get-sum',
    });
  });

  it('sanitises characters outside the pattern and truncates long names with a stable suffix', () => {
    const long = 'x'.repeat(100);
    const names = assignMcpToolNames([
      { server: 'srv', tool: 'files/read.v2 ü' },
      { server: 'srv', tool: long },
    ]);
    expect(names.get('srv.files/read.v2 ü')?.llmName).toBe('srv_files_read_v2__');
    const cut = names.get(`srv.${long}`)?.llmName ?? '';
    expect(cut).toMatch(PATTERN);
    expect(cut).toHaveLength(64);
    expect(assignMcpToolNames([{ server: 'srv', tool: long }]).get(`srv.${long}`)?.llmName).toBe(cut);
  });

  it('gives colliding names a deterministic suffix independent of list order', () => {
    const a = { server: 'a_b', tool: 'c' };
    const b = { server: 'a', tool: 'b_c' };
    const forward = assignMcpToolNames([a, b]);
    const backward = assignMcpToolNames([b, a]);
    expect(forward).toEqual(backward);
    const names = [...forward.values()].map((entry) => entry.llmName);
    expect(new Set(names).size).toBe(2);
    expect(names).toContain('a_b_c');
    for (const name of names) expect(name).toMatch(PATTERN);
  });

  it('avoids names already taken by other sources', () => {
    const names = assignMcpToolNames([{ server: 'web', tool: 'search' }], new Set(['web_search']));
    expect(names.get('web.search')?.llmName).toMatch(/^web_search_[0-9a-f]+$/);
  });
});
