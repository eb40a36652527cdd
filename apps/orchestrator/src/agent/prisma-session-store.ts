import { TurnLeaseLostError, type SessionStore, type StoredMessage, type TurnFence } from '@talon/agent';
import type { LlmMessage } from '@talon/llm';
import { Prisma, retryOnUniqueViolation, type PrismaClient } from '@talon/persistence';

interface StoredContent {
  turnId: string;
  message: LlmMessage;
}

/**
 * The session message log in the database. `seq` is numbered by the insert itself and the unique
 * (session, seq) index refuses a duplicate, so two writers racing cannot share a number: the loser
 * numbers again. A leased fence writes only while its owner holds the session's turn lease.
 */
export class PrismaSessionStore implements SessionStore {
  constructor(private readonly prisma: PrismaClient) {}

  async append(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence?: TurnFence,
  ): Promise<StoredMessage> {
    return (await this.appendMany(sessionId, turnId, [message], fence))[0]!;
  }

  /**
   * One statement, so one commit: the messages get the next seqs in order, and a user message marks
   * the session as active. The lease row is read `FOR SHARE`, so a takeover committing meanwhile is
   * waited for and then seen.
   */
  async appendMany(
    sessionId: string,
    turnId: string,
    messages: readonly LlmMessage[],
    fence?: TurnFence,
  ): Promise<readonly StoredMessage[]> {
    if (messages.length === 0) return [];
    const held = fence?.leased
      ? Prisma.sql`EXISTS (SELECT 1 FROM turn_lease WHERE session_id = ${sessionId}::uuid AND owner = ${fence.owner} FOR SHARE)`
      : Prisma.sql`TRUE`;
    const contents = JSON.stringify(messages.map((message) => ({ turnId, message }) satisfies StoredContent));
    const roles = messages.map((message) => message.role);
    const touch = roles.includes('user');
    const rows = await retryOnUniqueViolation(
      () => this.prisma.$queryRaw<Array<{ seq: number; created_at: Date }>>`
      WITH lease AS (SELECT ${held} AS held),
      base AS (SELECT COALESCE(MAX(seq), 0) AS seq FROM message WHERE session_id = ${sessionId}::uuid),
      inserted AS (
        INSERT INTO message (id, session_id, seq, role, content)
        SELECT gen_random_uuid(), ${sessionId}::uuid, base.seq + item.ordinality, item.value->'message'->>'role', item.value
        FROM lease, base, jsonb_array_elements(${contents}::jsonb) WITH ORDINALITY AS item
        WHERE lease.held
        RETURNING seq, created_at
      ), touched AS (
        UPDATE session SET updated_at = now() WHERE id = ${sessionId}::uuid AND ${touch}
          AND (SELECT held FROM lease)
      )
      SELECT seq, created_at FROM inserted ORDER BY seq`,
      // Every retry reads MAX(seq) afresh, so several racing writers all get through in a few rounds.
      8,
    );
    if (rows.length === 0) throw new TurnLeaseLostError(sessionId, fence?.owner ?? 'unknown');
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
