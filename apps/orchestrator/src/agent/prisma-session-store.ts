import { TurnLeaseLostError, type SessionStore, type StoredMessage, type TurnFence } from '@talon/agent';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { LlmMessage } from '@talon/llm';
import { Prisma, type PrismaClient } from '@talon/persistence';

interface StoredContent {
  turnId: string;
  message: LlmMessage;
}

/**
 * The session message log in the database. The session row hands out `seq`: an append bumps its
 * `last_seq` and numbers its messages with the values it skipped, so writers racing on one session queue
 * on that row's lock instead of colliding (the unique (session, seq) index still guards the numbering).
 * A leased fence writes only while its owner holds the session's turn lease.
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
    const touch = messages.some((message) => message.role === 'user');
    // The UPDATE waits for a racing writer's commit and then bumps the value that writer left.
    const rows = await this.prisma.$queryRaw<Array<{ seq: number; created_at: Date }>>`
      WITH lease AS (SELECT ${held} AS held),
      bumped AS (
        UPDATE session
        SET last_seq = last_seq + ${messages.length},
            updated_at = CASE WHEN ${touch} THEN now() ELSE updated_at END
        WHERE id = ${sessionId}::uuid AND (SELECT held FROM lease)
        RETURNING last_seq - ${messages.length} AS seq
      ),
      inserted AS (
        INSERT INTO message (id, session_id, seq, role, content)
        SELECT gen_random_uuid(), ${sessionId}::uuid, bumped.seq + item.ordinality, item.value->'message'->>'role', item.value
        FROM bumped, jsonb_array_elements(${contents}::jsonb) WITH ORDINALITY AS item
        RETURNING seq, created_at
      )
      SELECT seq, created_at FROM inserted ORDER BY seq`;
    if (rows.length === 0 && fence?.leased) throw new TurnLeaseLostError(sessionId, fence.owner);
    if (rows.length === 0)
      throw new TalonError(
        ERROR_CODES.NOT_FOUND,
        `No session ${sessionId}; create one with sessions.create.`,
        {
          details: { sessionId },
        },
      );
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
