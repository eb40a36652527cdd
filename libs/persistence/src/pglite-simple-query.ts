import type { PGlite } from '@electric-sql/pglite';
import { PgliteStatementError } from './errors/pglite-statement-error.js';

/** Backend message types read here (PostgreSQL frontend/backend protocol). */
const QUERY = 0x51; // 'Q'
const ERROR_RESPONSE = 0x45; // 'E'
const COMMAND_COMPLETE = 0x43; // 'C'

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What a statement run by {@link PgliteSimpleQuery} reports. */
export interface SimpleQueryOutcome {
  /** Rows changed by the last statement of the text (from its command tag), 0 for one that reports none. */
  affectedRows: number;
}

/**
 * Runs SQL text that returns no rows on PGlite as one simple-query message, read back without PGlite's
 * result parser. `PGlite.exec` sends the query and then a separate Sync, and parses every reply message into
 * objects; this reads only the command tags and an error, if any. For a one-row audit append that is a
 * fifth of the statement's CPU (measured standalone, interleaved: 268 → 217 µs a row). Both of PGlite's
 * locks are held, as its own `exec` holds them, so the text never runs inside another caller's open
 * transaction, and the data directory is synced afterwards as `exec` does.
 */
export class PgliteSimpleQuery {
  constructor(private readonly db: PGlite) {}

  /**
   * Runs `sql`; `input` is what PGlite's `/dev/blob` reads meanwhile (a `COPY … FROM '/dev/blob'`), as
   * PGlite's own `exec` hands over its `blob` option.
   */
  run(sql: string, input?: Uint8Array): Promise<SimpleQueryOutcome> {
    return this.db._runExclusiveTransaction(() =>
      this.db._runExclusiveQuery(async () => {
        // Bytes of an ordinary (not shared) buffer: BinaryCopyRows allocates them.
        if (input !== undefined) await this.db._handleBlob(new Blob([input as Uint8Array<ArrayBuffer>]));
        try {
          // The stream form hands over the reply bytes as they come; the plain one parses them all first.
          const chunks: Uint8Array[] = [];
          await this.db.execProtocolRawStream(queryMessage(sql), {
            syncToFs: true,
            onRawData: (chunk) => chunks.push(chunk.slice()), // a view into PGlite's memory
          });
          return readReply(chunks.length === 1 ? chunks[0]! : concat(chunks));
        } finally {
          if (input !== undefined) await this.db._cleanupBlob();
        }
      }),
    );
  }
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}

function queryMessage(sql: string): Uint8Array {
  const text = encoder.encode(sql);
  const message = new Uint8Array(text.length + 6); // type, int32 length, text, NUL
  message[0] = QUERY;
  new DataView(message.buffer).setInt32(1, text.length + 5);
  message.set(text, 5);
  return message;
}

/** The outcome of the reply messages, or the first error among them thrown as it is. */
function readReply(reply: Uint8Array): SimpleQueryOutcome {
  const view = new DataView(reply.buffer, reply.byteOffset, reply.byteLength);
  let affectedRows = 0;
  for (let at = 0; at + 5 <= reply.length;) {
    const type = reply[at]!;
    const end = at + 1 + view.getInt32(at + 1);
    if (type === ERROR_RESPONSE) throw errorOf(reply.subarray(at + 5, end));
    if (type === COMMAND_COMPLETE) affectedRows = rowsOfTag(decoder.decode(reply.subarray(at + 5, end - 1)));
    at = end;
  }
  return { affectedRows };
}

/** `INSERT 0 3` → 3, `UPDATE 2` → 2, `CREATE TABLE` → 0. */
function rowsOfTag(tag: string): number {
  const last = tag.slice(tag.lastIndexOf(' ') + 1);
  return /^[0-9]+$/.test(last) ? Number(last) : 0;
}

/** An ErrorResponse body: fields of a type byte and a NUL-terminated text, ended by a NUL. */
function errorOf(body: Uint8Array): PgliteStatementError {
  const fields = new Map<string, string>();
  for (let at = 0; at < body.length && body[at] !== 0;) {
    const end = body.indexOf(0, at + 1);
    fields.set(String.fromCharCode(body[at]!), decoder.decode(body.subarray(at + 1, end)));
    at = end + 1;
  }
  return new PgliteStatementError({
    code: fields.get('C') ?? 'XX000',
    message: fields.get('M') ?? 'the statement failed',
    ...(fields.has('D') ? { detail: fields.get('D') } : {}),
    ...(fields.has('n') ? { constraint: fields.get('n') } : {}),
    ...(fields.has('t') ? { table: fields.get('t') } : {}),
  });
}
