import { describe, expect, it } from '@jest/globals';
import type { McpServerListing } from '@talon/contracts';
import { mergeMcpInstanceReplies } from './mcp-server-views.js';

const listing = (
  name: string,
  state: McpServerListing['state'],
  extra: Partial<McpServerListing> = {},
): McpServerListing => ({
  name,
  displayName: name,
  transport: 'streamable-http',
  state,
  toolCount: state === 'running' ? 3 : 0,
  lastStderr: [],
  restarts: 0,
  tools: [],
  unusableTools: [],
  ...extra,
});

describe('mergeMcpInstanceReplies', () => {
  it('shows each server once, by its healthiest instance, with every instance state and summed restarts', () => {
    const views = mergeMcpInstanceReplies([
      {
        instanceId: 'w1',
        domain: 'orchestrator',
        servers: [listing('remote', 'down', { lastError: 'refused', restarts: 2 }), listing('b', 'stopped')],
      },
      { instanceId: 'w2', domain: 'orchestrator', servers: [listing('remote', 'running', { restarts: 1 })] },
      { instanceId: 'r1', domain: 'container', servers: [listing('a', 'stopped', { transport: 'stdio' })] },
    ]);
    expect(views.map((view) => view.name)).toEqual(['a', 'b', 'remote']);
    const remote = views[2]!;
    expect(remote).toMatchObject({ state: 'running', toolCount: 3, restarts: 3, domain: 'orchestrator' });
    expect(remote.instances).toEqual([
      { instanceId: 'w1', state: 'down', lastError: 'refused' },
      { instanceId: 'w2', state: 'running' },
    ]);
    expect(views[0]).toMatchObject({
      domain: 'container',
      instances: [{ instanceId: 'r1', state: 'stopped' }],
    });
  });

  it('returns nothing for no replies', () => {
    expect(mergeMcpInstanceReplies([])).toEqual([]);
  });
});
