import type { PrismaClient } from '@talon/persistence';

/**
 * One Talon session per MCP client session, created on its first call: its grants ("always allow")
 * and pending approvals belong to that client, and the 5-pending limit is per client.
 */
export class McpClientSessions {
  private readonly sessions = new Map<string, Promise<string>>();

  constructor(private readonly prisma: PrismaClient) {}

  sessionFor(mcpSessionId = 'stateless'): Promise<string> {
    let session = this.sessions.get(mcpSessionId);
    if (!session) {
      session = this.prisma.session
        .create({ data: { title: `mcp client ${mcpSessionId}` }, select: { id: true } })
        .then((row) => row.id);
      session.catch(() => this.sessions.delete(mcpSessionId));
      if (this.sessions.size >= 1000) this.sessions.delete(this.sessions.keys().next().value!);
      this.sessions.set(mcpSessionId, session);
    }
    return session;
  }
}
