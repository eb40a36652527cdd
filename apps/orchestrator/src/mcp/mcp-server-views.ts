import type { McpInstanceReply, McpServerListing, McpServerView } from '@talon/contracts';

const STATE_RANK: Record<McpServerListing['state'], number> = {
  running: 0,
  starting: 1,
  stopping: 2,
  stopped: 3,
  down: 4,
};

/**
 * Merges the control replies of every instance into one view per server. Tool-workers each run their own
 * connection, so a server is shown by its healthiest instance (running first) and lists every instance's
 * state; restarts add up.
 */
export function mergeMcpInstanceReplies(replies: readonly McpInstanceReply[]): McpServerView[] {
  const views = new Map<string, McpServerView>();
  for (const reply of replies) {
    for (const listing of reply.servers) {
      const instance = {
        instanceId: reply.instanceId,
        state: listing.state,
        ...(listing.lastError ? { lastError: listing.lastError } : {}),
      };
      const current = views.get(listing.name);
      if (!current) {
        views.set(listing.name, { ...listing, domain: reply.domain, instances: [instance] });
        continue;
      }
      const instances = [...current.instances, instance];
      const restarts = current.restarts + listing.restarts;
      const best =
        STATE_RANK[listing.state] < STATE_RANK[current.state]
          ? { ...listing, domain: reply.domain }
          : current;
      views.set(listing.name, { ...best, restarts, instances });
    }
  }
  return [...views.values()].sort((a, b) => a.name.localeCompare(b.name));
}
