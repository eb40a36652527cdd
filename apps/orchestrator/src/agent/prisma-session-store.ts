import type { SessionStore, StoredMessage } from '@talon/agent';
import type { LlmMessage } from '@talon/llm';
import type { PrismaClient } from '@talon/persistence';

interface StoredContent {
  turnId: string;
  message: LlmMessage;
}

/** The session message log in the database; `seq` is assigned by the insert itself, so it never races. */
export class PrismaSessionStore implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  async append(sessionId: string, turnId: string, message: LlmMessage): Promise<StoredMessage> {
    const content = JSON.stringify({ turnId, message } satisfies StoredContent);
    const [row] = await this.prisma.$queryRaw<Array<{ seq: number; created_at: Date }>>`
      INSERT INTO message (id, session_id, seq, role, content)
      SELECT gen_random_uuid(), ${sessionId}::uuid, COALESCE(MAX(seq), 0) + 1, ${message.role}, ${content}::jsonb
      FROM message WHERE session_id = ${sessionId}::uuid
      RETURNING seq, created_at`;
    await this.prisma.session.update({ where: { id: sessionId }, data: { updatedAt: new Date() } });
    return { sessionId, seq: row!.seq, turnId, message, createdAt: row!.created_at.getTime() };
  }

  async load(sessionId: string): Promise<readonly StoredMessage[]> {
    const rows = await this.prisma.message.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
    return rows.map((row) => {
      const content = row.content as unknown as StoredContent;
      return { sessionId, seq: row.seq, turnId: content.turnId, message: content.message, createdAt: row.createdAt.getTime() };
    });
  }
}
