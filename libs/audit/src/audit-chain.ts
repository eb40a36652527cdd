import { hash } from 'node:crypto';
import { GENESIS_HASH, type AuditRecord, type ChainedAuditRecord } from './audit-record.js';

/**
 * JSON with sorted keys, so equal records hash equally whatever their key order. Written as loops: it runs
 * for every audit row, and the entries/filter/sort/map chain allocated an array per step.
 */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++)
      text += (index === 0 ? '' : ',') + canonical(value[index]);
    return `${text}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort(byCodeUnits);
  let text = '{';
  let first = true;
  for (const key of keys) {
    const item = object[key];
    if (item === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${canonical(item)}`;
    first = false;
  }
  return `${text}}`;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The hashed fields of a record, in the order `canonical` sorts them. */
const HASHED_FIELDS = [
  'actor',
  'argsHash',
  'at',
  'callId',
  'data',
  'durationMs',
  'kind',
  'outcome',
  'sessionId',
  'tool',
] as const satisfies ReadonlyArray<keyof AuditRecord>;

/**
 * sha256 over the previous hash and the record's canonical JSON. The record's own fields are written in
 * their sorted order directly (the same text `canonical` gives the object of those fields, pinned by a
 * test), so only `data` is sorted key by key. One-shot `hash` over one string: a `Hash` object with three
 * updates cost twice as much per record (measured).
 */
export function computeAuditHash(prevHash: string, record: AuditRecord): string {
  let body = '{';
  for (const field of HASHED_FIELDS) {
    const value = record[field];
    if (value === undefined) continue;
    body += `${body === '{' ? '' : ','}"${field}":${canonical(value)}`;
  }
  body += '}';
  return hash('sha256', `${prevHash}\n${body}`, 'hex');
}

/** The first problem `verifyAuditChain` found. */
export interface AuditChainBreak {
  /** The row where the chain stops holding. */
  id: string;
  reason: 'edited' | 'deleted_before' | 'bad_genesis';
  message: string;
}

/** The verdict over a whole chain. */
export interface AuditVerification {
  ok: boolean;
  checked: number;
  headHash: string;
  firstBreak?: AuditChainBreak;
}

/**
 * Checks a chain one record at a time, so a caller can feed it page by page (a table of any size is
 * verified in bounded memory). `check` returns the first break and keeps returning it.
 */
export class AuditChainVerifier {
  private previous: ChainedAuditRecord | undefined;
  private checked = 0;
  private firstBreak: AuditChainBreak | undefined;

  check(record: ChainedAuditRecord): AuditChainBreak | undefined {
    if (this.firstBreak) return this.firstBreak;
    const id = String(record.id);
    const previous = this.previous;
    const expectedPrev = previous ? previous.hash : GENESIS_HASH;
    if (record.prevHash !== expectedPrev) {
      this.firstBreak = previous
        ? {
            id,
            reason: 'deleted_before',
            message: `Row ${id} links to a hash that is not row ${String(previous.id)}'s: a row between them was deleted or row ${String(previous.id)} was edited.`,
          }
        : {
            id,
            reason: 'bad_genesis',
            message: `Row ${id} is the first row but does not start the chain: earlier rows were deleted.`,
          };
      return this.firstBreak;
    }
    if (computeAuditHash(record.prevHash, record) !== record.hash) {
      this.firstBreak = {
        id,
        reason: 'edited',
        message: `Row ${id} was edited after it was written: its content no longer matches its hash.`,
      };
      return this.firstBreak;
    }
    this.previous = record;
    this.checked++;
    return undefined;
  }

  /** The verdict over everything checked so far. */
  result(): AuditVerification {
    const headHash = this.previous?.hash ?? GENESIS_HASH;
    return this.firstBreak
      ? { ok: false, checked: this.checked, headHash, firstBreak: this.firstBreak }
      : { ok: true, checked: this.checked, headHash };
  }
}

/**
 * Walks the records in chain order. An edited row no longer matches its own hash; a deleted row leaves
 * its successor pointing at a hash that is not its predecessor's. Deleting the newest rows cannot be
 * seen from the rows alone: compare `headHash` with one recorded elsewhere for that.
 */
export function verifyAuditChain(records: Iterable<ChainedAuditRecord>): AuditVerification {
  const verifier = new AuditChainVerifier();
  for (const record of records) if (verifier.check(record)) break;
  return verifier.result();
}
