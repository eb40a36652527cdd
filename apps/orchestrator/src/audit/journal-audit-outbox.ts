import {
  closeSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { canonicalAuditBody } from '@talon/audit';
import { AuditOutboxRecordSchema, type AuditOutboxRecord } from '@talon/contracts';
import { validatePayload, type JsonLogger } from '@talon/service-runtime';
import type { AuditCommit, AuditOutbox, StoredRecordIds } from './audit-outbox.js';
import { AuditJournalRefusedError } from './audit-journal-refused-error.js';
import { unreadableAuditRecord } from './unreadable-audit-record.js';

/** Options of {@link JournalAuditOutbox}. */
export interface JournalAuditOutboxOptions {
  /** Records one segment file takes before the next starts. Default {@link DEFAULT_SEGMENT_RECORDS}. */
  segmentRecords?: number;
  /** The longest `stop` waits for the records it holds to be committed; the rest stay in the journal. Default 10 s. */
  stopWaitMs?: number;
  /**
   * Records answered but not yet committed that the journal holds at most. Past it the journal refuses, so
   * a call waits for its own commit again: while the database refuses writes, callers slow down instead of
   * the queue growing without bound. Default {@link DEFAULT_MAX_UNCOMMITTED}.
   */
  maxUncommitted?: number;
}

/** A segment is deleted once every record in it is committed, so this bounds what a restart replays. */
export const DEFAULT_SEGMENT_RECORDS = 4_096;
const DEFAULT_STOP_WAIT_MS = 10_000;
/** About two seconds of a busy orchestrator's calls. */
export const DEFAULT_MAX_UNCOMMITTED = 10_000;
const SEGMENT_NAME = /^segment-(\d{12})\.jsonl$/;

/** One journal file: its records are appended, committed, and then the file is deleted. */
interface Segment {
  readonly path: string;
  /** Open for appending while it is the current segment. */
  fd: number | undefined;
  bytes: number;
  appended: number;
  committed: number;
}

/** A record waiting for the next write of the journal, and its caller. */
interface PendingLine {
  record: AuditOutboxRecord;
  /** The record's canonical JSON: the line is made of it, and the chain hashes it. */
  body: string;
  line: string;
  written: () => void;
  refused: (error: unknown) => void;
}

/**
 * The audit outbox of an embedded database: a journal of JSON lines in a folder of the PGlite data
 * directory, which one orchestrator owns (the data directory's lock). `publish` resolves once the record
 * is written: it then survives a crash of this process exactly as a PGlite commit does (PGlite runs with
 * fsync off, so both live in the operating system's page cache until it writes them out). The records
 * published in one turn of the event loop share one `write` (one per record was 40 % of the orchestrator's
 * file and socket writes at concurrency 64, profiled); the turn ends within microseconds of the first.
 * Each record is then handed to the chain; the chain gathers them into statements of dozens of rows,
 * which on PGlite cost a fraction of a statement per row. A segment whose records are all
 * committed is deleted; at start the segments left by a killed process are committed again, but for the
 * records the chain already holds (see `committedInOrder`), so none is stored twice. A line cut short
 * by a crash in the middle of its write belongs to a call that was never answered and is skipped; any
 * other line that is not a record is kept as an `audit.unreadable` row.
 */
export class JournalAuditOutbox implements AuditOutbox {
  private commit?: AuditCommit;
  private current?: Segment;
  private nextSegment = 1;
  private outstanding = 0;
  private idleWaiters: Array<() => void> = [];
  private stopped = false;
  private pending: PendingLine[] = [];
  private writeScheduled = false;
  private readonly segmentRecords: number;

  constructor(
    private readonly dir: string,
    private readonly logger: JsonLogger,
    private readonly options: JournalAuditOutboxOptions = {},
  ) {
    this.segmentRecords = options.segmentRecords ?? DEFAULT_SEGMENT_RECORDS;
  }

  publish(record: AuditOutboxRecord): Promise<void> {
    if (!this.commit || this.stopped)
      return Promise.reject(new AuditJournalRefusedError('not-taking-records'));
    const held = this.outstanding + this.pending.length;
    if (held >= (this.options.maxUncommitted ?? DEFAULT_MAX_UNCOMMITTED))
      return Promise.reject(new AuditJournalRefusedError('full', held));
    return new Promise((written, refused) => {
      const body = canonicalAuditBody(record);
      this.pending.push({ record, body, line: journalLine(record, body), written, refused });
      if (this.writeScheduled) return;
      this.writeScheduled = true;
      setImmediate(() => this.writePending());
    });
  }

  /**
   * The chain takes the journal's records in the order they were written and stores each batch whole, so
   * after a crash the stored records are those up to the last one whose id the chain holds (the chain keeps
   * the id of the last journal record of each batch, and of the last record of each segment).
   */
  readonly committedInOrder = true;

  /**
   * Commits what earlier runs left in the journal (all but the records `stored` shows the chain holds
   * already, see {@link committedInOrder}), then takes new records.
   */
  async start(commit: AuditCommit, stored: StoredRecordIds): Promise<void> {
    mkdirSync(this.dir, { recursive: true });
    const names = readdirSync(this.dir)
      .filter((name) => SEGMENT_NAME.test(name))
      .sort();
    const left: Array<{ segment: Segment; records: AuditOutboxRecord[] }> = [];
    for (const name of names) {
      const path = join(this.dir, name);
      this.nextSegment = Math.max(this.nextSegment, Number(SEGMENT_NAME.exec(name)![1]) + 1);
      // Only regular files are read: a link to a device or a FIFO could stall the start.
      if (!lstatSync(path).isFile()) {
        this.logger.write('warn', 'left alone an audit journal entry that is not a file', { path });
        continue;
      }
      const segment: Segment = { path, fd: undefined, bytes: 0, appended: 0, committed: 0 };
      const records = this.readSegment(path);
      segment.appended = records.length;
      left.push({ segment, records });
    }
    const ids = left.flatMap(({ records }) => records.map((record) => record.recordId));
    const storedIds = ids.length > 0 ? await stored(ids) : new Set<string>();
    let storedCount = ids.length;
    while (storedCount > 0 && !storedIds.has(ids[storedCount - 1]!)) storedCount--;
    let position = 0;
    for (const { segment, records } of left) {
      for (const record of records) {
        if (position++ < storedCount) segment.committed++;
        else this.track(segment, commit(record));
      }
      if (segment.committed === segment.appended) this.remove(segment);
    }
    if (ids.length > 0)
      this.logger.write('info', 'committing audit records left in the journal', {
        records: ids.length - storedCount,
        storedAlready: storedCount,
        segments: left.length,
      });
    this.commit = commit;
  }

  drained(maxWaitMs: number): Promise<boolean> {
    if (this.outstanding === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const idle = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      // A wait that gives up takes its waiter back: while the database refuses writes, every `audit.list`
      // would otherwise leave one behind.
      const timer = setTimeout(() => {
        this.idleWaiters.splice(this.idleWaiters.indexOf(idle), 1);
        resolve(false);
      }, maxWaitMs);
      this.idleWaiters.push(idle);
    });
  }

  /** Takes no more records; waits (bounded) for those taken, and deletes the segments they fill. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.writePending();
    const segment = this.current;
    if (segment) this.seal(segment);
    await this.drained(this.options.stopWaitMs ?? DEFAULT_STOP_WAIT_MS);
  }

  /** Writes the records published since the last write, a segment's worth at a time, and hands them on. */
  private writePending(): void {
    this.writeScheduled = false;
    const batch = this.pending;
    this.pending = [];
    for (let next = 0; next < batch.length;) {
      let segment: Segment;
      try {
        segment = this.current ?? this.openSegment();
      } catch (error) {
        for (const line of batch.slice(next)) line.refused(error);
        return;
      }
      const part = batch.slice(next, next + this.segmentRecords - segment.appended);
      next += part.length;
      try {
        this.writeLines(segment, part);
      } catch (error) {
        for (const line of part) line.refused(error);
        continue;
      }
      // The record that fills its segment keeps its id in the chain too: should the segment outlive its
      // commit (its deletion failed) while the segment after it is deleted, a replay still finds that it
      // is stored, though its batch's last record is gone with the later segment.
      const fills = segment.appended >= this.segmentRecords;
      for (let index = 0; index < part.length; index++) {
        const line = part[index]!;
        this.track(segment, this.commit!(line.record, line.body, fills && index === part.length - 1));
        line.written();
      }
    }
  }

  private writeLines(segment: Segment, lines: readonly PendingLine[]): void {
    let text = '';
    for (const line of lines) text += line.line;
    const bytes = Buffer.from(text);
    try {
      for (let written = 0; written < bytes.byteLength;)
        written += writeSync(segment.fd!, bytes, written, bytes.byteLength - written);
    } catch (error) {
      // A full disk, say: take back the part written, close the segment, and let the callers write their
      // records directly. A part that stays (the truncate failed too) ends the segment with a line a
      // replay skips as a torn write, or with lines whose records the chain then finds stored already.
      try {
        ftruncateSync(segment.fd!, segment.bytes);
      } catch (truncateError) {
        this.logger.write('warn', 'could not take back a failed audit journal write', {
          path: segment.path,
          error: String(truncateError),
        });
      }
      this.seal(segment);
      throw error;
    }
    segment.bytes += bytes.byteLength;
    segment.appended += lines.length;
    if (segment.appended >= this.segmentRecords) this.seal(segment);
  }

  private openSegment(): Segment {
    const name = `segment-${String(this.nextSegment++).padStart(12, '0')}.jsonl`;
    const path = join(this.dir, name);
    const segment: Segment = { path, fd: openSync(path, 'a', 0o600), bytes: 0, appended: 0, committed: 0 };
    this.current = segment;
    return segment;
  }

  /** No more records go into `segment`; it is deleted now or once its last record is committed. */
  private seal(segment: Segment): void {
    if (this.current === segment) this.current = undefined;
    if (segment.fd !== undefined) closeSync(segment.fd);
    segment.fd = undefined;
    if (segment.committed === segment.appended) this.remove(segment);
  }

  private track(segment: Segment, committed: Promise<void>): void {
    this.outstanding++;
    // `commit` never rejects: the chain retries a failed write until it is stored.
    void committed.then(() => {
      segment.committed++;
      if (segment.fd === undefined && segment.committed === segment.appended) this.remove(segment);
      if (--this.outstanding === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
  }

  private remove(segment: Segment): void {
    try {
      unlinkSync(segment.path);
    } catch (error) {
      // Still there at the next start: its records are then found stored and not written twice.
      this.logger.write('warn', 'a committed audit journal segment could not be deleted', {
        path: segment.path,
        error: String(error),
      });
    }
  }

  private readSegment(path: string): AuditOutboxRecord[] {
    const lines = readFileSync(path, 'utf8').split('\n');
    // Text after the last newline is a line whose write a crash cut short: its call was never answered.
    const torn = lines.pop();
    if (torn)
      this.logger.write('warn', 'skipped an audit journal line cut short by a crash', {
        path,
        bytes: Buffer.byteLength(torn),
      });
    const records: AuditOutboxRecord[] = [];
    lines.forEach((line, index) => {
      if (line === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
        records.push(
          validatePayload<AuditOutboxRecord>(AuditOutboxRecordSchema, parsed, 'An audit journal record'),
        );
      } catch (error) {
        const id = (parsed as { recordId?: unknown } | undefined)?.recordId;
        records.push(
          unreadableAuditRecord(
            typeof id === 'string' ? id : undefined,
            { journal: path, line: index + 1 },
            error,
          ),
        );
      }
    });
    return records;
  }
}

/**
 * A record as one line of JSON: its canonical JSON (the hashed fields, each present, null or not), which the
 * chain needs anyway to hash the record, with the record id put in front. Encoding the record a second
 * time cost 1.0 µs a record (measured).
 */
function journalLine(record: AuditOutboxRecord, body: string): string {
  return `{"recordId":${JSON.stringify(record.recordId)},${body.slice(1)}\n`;
}
