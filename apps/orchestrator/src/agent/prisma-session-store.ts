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
    return (await this.appendMany(sessionId, turnId, [message]))[0]!;
  }

  /**
   * One statement, so one commit: the messages get the next seqs in order (the unique (session, seq)
   * index refuses a racing writer), and a user message marks the session as active.
   */
  async appendMany(
    sessionId: string,
    turnId: string,
    messages: readonly LlmMessage[],
  ): Promise<readonly StoredMessage[]> {
    const contents = JSON.stringify(messages.map((message) => ({ turnId, message }) satisfies StoredContent));
    const roles = messages.map((message) => message.role);
    const touch = roles.includes('user');
    const rows = await this.prisma.$queryRaw<Array<{ seq: number; created_at: Date }>>`
      WITH base AS (SELECT COALESCE(MAX(seq), 0) AS seq FROM message WHERE session_id = ${sessionId}::uuid),
      inserted AS (
        INSERT INTO message (id, session_id, seq, role, content)
        SELECT gen_random_uuid(), ${sessionId}::uuid, base.seq + item.ordinality, item.value->'message'->>'role', item.value
        FROM base, jsonb_array_elements(${contents}::jsonb) WITH ORDINALITY AS item
        RETURNING seq, created_at
      ), touched AS (
        UPDATE session SET updated_at = now() WHERE id = ${sessionId}::uuid AND ${touch}
      )
      SELECT seq, created_at FROM inserted ORDER BY seq`;
    return rows.map((row, index) => ({
      sessionId,
      seq: row.seq,
      turnId,
      message: messages[index]!,
      createdAt: row.created_at.getTime(),
    }));
  }

  async load(sessionId: string): Promise<readonly StoredMessage[]> {
    const rows = await this.prisma.message.findMany({ where: { sessionId }, orderBy: { seq: 'asc' } });
    return rows.map((row) => {
      const content = row.content as unknown as StoredContent;
      return {
        sessionId,
        seq: row.seq,
        turnId: content.turnId,
        message: content.message,
        createdAt: row.createdAt.getTime(),
      };
    });
  }
}
