/** The signature, flags and header extension that open PostgreSQL's binary COPY format. */
const HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01 UTC). */
const POSTGRES_EPOCH_MICROS = BigInt(Date.UTC(2000, 0, 1)) * 1000n;
/** Text up to this many characters is tried as ASCII first (see `asciiText`). */
const SHORT_TEXT = 256;
/** Where a uuid's text has its dashes, and where each of its 16 bytes starts (two hex digits). */
const UUID_DASHES = [8, 13, 18, 23];
const UUID_BYTES = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/** Each hex digit's value by character code; -1 for every other character. */
const HEX_VALUE = Int8Array.from({ length: 128 }, (_, code) => {
  const digit = String.fromCharCode(code);
  return /[0-9a-f]/i.test(digit) ? parseInt(digit, 16) : -1;
});
const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The statement that reads {@link BinaryCopyRows} input from the server-side file `path` (on PGlite, a file
 * of its own file system) into `columns` of `table`. `path` is the caller's constant, never user input.
 */
export function binaryCopyStatement(table: string, columns: readonly string[], path: string): string {
  return `COPY ${table} (${columns.join(', ')}) FROM '${path}' WITH (FORMAT binary)`;
}

/**
 * Rows in PostgreSQL's binary COPY format, for {@link Database.copyRows}: each value arrives as the bytes
 * the column stores, so PostgreSQL parses no timestamp, uuid or integer text (on PGlite that was a fifth of
 * an audit row's CPU, measured). Each row starts with {@link row}, followed by one call per column in the
 * statement's column order; `null` writes SQL NULL. A value the column could not hold is refused here with
 * a RangeError or TypeError, as PostgreSQL would refuse its text.
 */
export class BinaryCopyRows {
  private bytes = Buffer.allocUnsafe(16 * 1024);
  private length = 0;

  constructor() {
    this.put(HEADER);
  }

  /** Starts a row of `columns` values. */
  row(columns: number): this {
    this.reserve(2).writeInt16BE(columns, this.length);
    this.length += 2;
    return this;
  }

  text(value: string | null): this {
    if (value === null) return this.null();
    if (typeof value !== 'string') throw new TypeError(`not text for a COPY field: ${typeof value}`);
    if (value.length <= SHORT_TEXT && this.asciiText(value)) return this;
    const size = Buffer.byteLength(value, 'utf8');
    const bytes = this.reserve(4 + size);
    bytes.writeInt32BE(size, this.length);
    bytes.write(value, this.length + 4, 'utf8');
    this.length += 4 + size;
    return this;
  }

  int4(value: number | null): this {
    if (value === null) return this.null();
    if (!Number.isInteger(value) || value < INT32_MIN || value > INT32_MAX)
      throw new RangeError(`not a 32-bit integer for a COPY field: ${value}`);
    const bytes = this.reserve(8);
    bytes.writeInt32BE(4, this.length);
    bytes.writeInt32BE(value, this.length + 4);
    this.length += 8;
    return this;
  }

  int8(value: bigint | null): this {
    if (value === null) return this.null();
    if (typeof value !== 'bigint' || value < INT64_MIN || value > INT64_MAX)
      throw new RangeError(`not a 64-bit integer for a COPY field: ${String(value)}`);
    return this.int8Field(value);
  }

  uuid(value: string | null): this {
    if (value === null) return this.null();
    if (typeof value !== 'string' || value.length !== 36)
      throw new TypeError(`not a UUID for a COPY field: ${String(value)}`);
    const bytes = this.reserve(20);
    bytes.writeInt32BE(16, this.length);
    // Parsed here, two hex digits a byte: the check and the bytes in one pass over the text.
    for (const dash of UUID_DASHES)
      if (value.charCodeAt(dash) !== 0x2d) throw new TypeError(`not a UUID for a COPY field: ${value}`);
    let at = this.length + 4;
    for (const index of UUID_BYTES) {
      const high = HEX_VALUE[value.charCodeAt(index)] ?? -1;
      const low = HEX_VALUE[value.charCodeAt(index + 1)] ?? -1;
      if (high < 0 || low < 0) throw new TypeError(`not a UUID for a COPY field: ${value}`);
      bytes[at++] = (high << 4) | low;
    }
    this.length += 20;
    return this;
  }

  /** A `timestamptz` from milliseconds since the Unix epoch (a whole number: the column keeps microseconds). */
  timestamptz(epochMs: number | null): this {
    if (epochMs === null) return this.null();
    if (!Number.isSafeInteger(epochMs))
      throw new RangeError(`not a time in whole milliseconds for a COPY field: ${epochMs}`);
    return this.int8Field(BigInt(epochMs) * 1000n - POSTGRES_EPOCH_MICROS);
  }

  /** A `jsonb` from JSON text (PostgreSQL checks and parses it, as it does the text format's). */
  jsonb(json: string | null): this {
    if (json === null) return this.null();
    if (typeof json !== 'string') throw new TypeError(`not JSON text for a COPY field: ${typeof json}`);
    const size = Buffer.byteLength(json, 'utf8');
    const bytes = this.reserve(5 + size);
    bytes.writeInt32BE(size + 1, this.length);
    bytes[this.length + 4] = 1; // jsonb's binary format version
    bytes.write(json, this.length + 5, 'utf8');
    this.length += 5 + size;
    return this;
  }

  null(): this {
    this.reserve(4).writeInt32BE(-1, this.length);
    this.length += 4;
    return this;
  }

  /** The input of `COPY … FROM … WITH (FORMAT binary)`: the rows and the end marker. */
  finish(): Uint8Array {
    this.reserve(2).writeInt16BE(-1, this.length);
    this.length += 2;
    return this.bytes.subarray(0, this.length);
  }

  private int8Field(value: bigint): this {
    const bytes = this.reserve(12);
    bytes.writeInt32BE(8, this.length);
    bytes.writeBigInt64BE(value, this.length + 4);
    this.length += 12;
    return this;
  }

  /**
   * Writes `value` byte for byte when every character is ASCII (the audit row's names, ids and hashes):
   * two calls into C++ per field (`byteLength`, `write`) cost more than the loop for short text. False,
   * with the length left as it was (the bytes past it are overwritten next), when a character is not ASCII.
   */
  private asciiText(value: string): boolean {
    const size = value.length;
    const bytes = this.reserve(4 + size);
    const start = this.length + 4;
    for (let index = 0; index < size; index++) {
      const code = value.charCodeAt(index);
      if (code > 0x7f) return false;
      bytes[start + index] = code;
    }
    bytes.writeInt32BE(size, this.length);
    this.length += 4 + size;
    return true;
  }

  private put(chunk: Uint8Array): void {
    this.reserve(chunk.byteLength).set(chunk, this.length);
    this.length += chunk.byteLength;
  }

  /** The buffer, grown (doubling) until `more` bytes fit after what is written. */
  private reserve(more: number): Buffer {
    if (this.length + more > this.bytes.length) {
      let size = this.bytes.length * 2;
      while (size < this.length + more) size *= 2;
      const grown = Buffer.allocUnsafe(size);
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    return this.bytes;
  }
}
