import { TurnLeaseLostError, type SessionStore, type StoredMessage, type TurnFence } from '@talon/agent';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { LlmMessage } from '@talon/llm';
import type { Database } from '@talon/persistence';

interface StoredContent {
  turnId: string;
  message: LlmMessage;
}

/** One row of the log as JSON, so it reads the same on both drivers (see `Database.query`). */
interface LogRow {
  seq: number;
  at: string;
  content: StoredContent;
}

/**
 * The append. The UPDATE waits for a racing writer's commit and then bumps the value that writer left.
 * $1 session, $2 fence leased, $3 fence owner, $4 message count, $5 touches the session, $6 contents.
 * With `withHistory` it also returns the log as it was before the append: the statement's snapshot does
 * not see its own insert, and a turn opens under its lease, so no other writer can be in between.
 */
function appendStatement(withHistory: boolean, releasing = false): string {
  // Closing a turn: the lease row (read FOR SHARE above, by this same statement) and the turn's claims go
  // once the message is in, as the lease store's release would delete them.
  const release = releasing
    ? `, released AS (
    DELETE FROM turn_lease WHERE session_id = $1::text::uuid AND owner = $3::text AND $2::text::boolean
      AND EXISTS (SELECT 1 FROM inserted)
    RETURNING session_id
  ), forgotten AS (
    DELETE FROM tool_call_claim WHERE session_id IN (SELECT session_id FROM released)
  )`
    : '';
  const history = withHistory
    ? `, 'history', (SELECT COALESCE(json_agg(json_build_object('seq', seq, 'at', created_at, 'content', content) ORDER BY seq), '[]')
        FROM message WHERE session_id = $1::text::uuid AND EXISTS (SELECT 1 FROM bumped))`
    : '';
  return `
  WITH lease AS (
    SELECT (NOT $2::text::boolean) OR EXISTS (
      SELECT 1 FROM turn_lease WHERE session_id = $1::text::uuid AND owner = $3::text FOR SHARE
    ) AS held
  ), bumped AS (
    UPDATE session
    SET last_seq = last_seq + $4::text::int,
        updated_at = CASE WHEN $5::text::boolean THEN now() ELSE updated_at END
    WHERE id = $1::text::uuid AND (SELECT held FROM lease)
    RETURNING last_seq - $4::text::int AS seq
  ), inserted AS (
    INSERT INTO message (id, session_id, seq, role, content)
    SELECT gen_random_uuid(), $1::text::uuid, bumped.seq + item.ordinality, item.value->'message'->>'role', item.value
    FROM bumped, jsonb_array_elements($6::text::jsonb) WITH ORDINALITY AS item
    RETURNING seq, created_at
  )${release}
  SELECT json_build_object(
    'appended', (SELECT COALESCE(json_agg(json_build_object('seq', seq, 'at', created_at) ORDER BY seq), '[]') FROM inserted)${history}
  )::text AS row`;
}

const APPEND = appendStatement(false);
const OPEN_TURN = appendStatement(true);
const CLOSE_TURN = appendStatement(false, true);

const LOAD = `
  SELECT COALESCE(json_agg(json_build_object('seq', seq, 'at', created_at, 'content', content) ORDER BY seq), '[]')::text AS rows
  FROM message WHERE session_id = $1::text::uuid`;

/**
 * The session message log in the database. The session row hands out `seq`: an append bumps its
 * `last_seq` and numbers its messages with the values it skipped, so writers racing on one session queue
 * on that row's lock instead of colliding (the unique (session, seq) index still guards the numbering).
 * A leased fence writes only while its owner holds the session's turn lease. Each call is one statement
 * beside Prisma, which adds 250-450 µs of CPU to each (measured); a turn with one tool batch makes four.
 */
export class PrismaSessionStore implements SessionStore {
  constructor(private readonly database: Pick<Database, 'query'>) {}

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
    return (await this.write(APPEND, sessionId, turnId, messages, fence)).appended;
  }

  /** The turn's user message and the log before it, in one statement (see `appendStatement`). */
  async openTurn(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence?: TurnFence,
  ): Promise<{ history: readonly StoredMessage[]; appended: StoredMessage }> {
    const { appended, history } = await this.write(OPEN_TURN, sessionId, turnId, [message], fence);
    return { history: history ?? [], appended: appended[0]! };
  }

  private async write(
    statement: string,
    sessionId: string,
    turnId: string,
    messages: readonly LlmMessage[],
    fence: TurnFence | undefined,
  ): Promise<{ appended: readonly StoredMessage[]; history?: readonly StoredMessage[] }> {
    const contents = JSON.stringify(messages.map((message) => ({ turnId, message }) satisfies StoredContent));
    const touch = messages.some((message) => message.role === 'user');
    const [result] = await this.database.query<{ row: string }>(statement, [
      sessionId,
      String(fence?.leased === true),
      fence?.owner ?? '',
      String(messages.length),
      String(touch),
      contents,
    ]);
    const written = JSON.parse(result!.row) as {
      appended: Array<Omit<LogRow, 'content'>>;
      history?: LogRow[];
    };
    if (written.appended.length === 0 && fence?.leased) throw new TurnLeaseLostError(sessionId, fence.owner);
    if (written.appended.length === 0)
      throw new TalonError(
        ERROR_CODES.NOT_FOUND,
        `No session ${sessionId}; create one with sessions.create.`,
        {
          details: { sessionId },
        },
      );
    return {
      appended: written.appended.map((row, index) => ({
        sessionId,
        seq: row.seq,
        turnId,
        message: messages[index]!,
        createdAt: Date.parse(row.at),
      })),
      ...(written.history ? { history: written.history.map((row) => toStored(sessionId, row)) } : {}),
    };
  }

  /** The turn's last message and the end of its lease, in one statement (see `appendStatement`). */
  async closeTurn(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence: TurnFence,
  ): Promise<StoredMessage> {
    return (await this.write(CLOSE_TURN, sessionId, turnId, [message], fence)).appended[0]!;
  }

  async load(sessionId: string): Promise<readonly StoredMessage[]> {
    const [result] = await this.database.query<{ rows: string }>(LOAD, [sessionId]);
    return (JSON.parse(result!.rows) as LogRow[]).map((row) => toStored(sessionId, row));
  }
}

function toStored(sessionId: string, row: LogRow): StoredMessage {
  return {
    sessionId,
    seq: row.seq,
    turnId: row.content.turnId,
    message: row.content.message,
    createdAt: Date.parse(row.at),
  };
}
