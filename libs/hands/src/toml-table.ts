import type { HandRejectionReason } from '@talon/contracts';

/** A field of a HAND.toml that cannot be used; the parser turns it into a rejection. */
export class HandFieldProblem extends Error {
  constructor(
    readonly reason: HandRejectionReason,
    message: string,
  ) {
    super(message);
  }
}

const MAX_STRING = 64 * 1024;
const MAX_LIST = 256;

/**
 * A TOML table read field by field. Every key read is remembered; {@link TomlTable.finish} reports the
 * others as warnings ("unknown field … ignored") instead of failing, so that newer files still load.
 */
export class TomlTable {
  private readonly used = new Set<string>();

  constructor(
    private readonly value: Record<string, unknown>,
    /** Dotted path of the table in the file, for messages (`hand.triggers`, `settings[2]`). */
    readonly path: string,
    private readonly warnings: string[],
  ) {}

  /** True when any of the keys is present. */
  has(...keys: string[]): boolean {
    return keys.some((key) => this.value[key] !== undefined);
  }

  /** The first present key among aliases (`requires_approval`, `needs_approval`). */
  private pick(keys: readonly string[]): [string, unknown] | undefined {
    for (const key of keys) this.used.add(key);
    for (const key of keys) if (this.value[key] !== undefined) return [key, this.value[key]];
    return undefined;
  }

  private where(key: string): string {
    return this.path ? `${this.path}.${key}` : key;
  }

  string(keys: string | readonly string[], required = false): string | undefined {
    const found = this.pick(typeof keys === 'string' ? [keys] : keys);
    if (!found) {
      if (required)
        throw new HandFieldProblem('missing_field', `"${this.where(asList(keys)[0]!)}" is required`);
      return undefined;
    }
    const [key, value] = found;
    if (typeof value !== 'string') throw invalid(this.where(key), 'a string');
    if (value.length > MAX_STRING) throw invalid(this.where(key), `at most ${MAX_STRING} characters`);
    const trimmed = value.trim();
    if (required && trimmed.length === 0)
      throw new HandFieldProblem('missing_field', `"${this.where(key)}" is empty`);
    return trimmed;
  }

  boolean(keys: string | readonly string[]): boolean | undefined {
    const found = this.pick(asList(keys));
    if (!found) return undefined;
    if (typeof found[1] !== 'boolean') throw invalid(this.where(found[0]), 'true or false');
    return found[1];
  }

  integer(keys: string | readonly string[], minimum: number): number | undefined {
    const found = this.pick(asList(keys));
    if (!found) return undefined;
    const [key, value] = found;
    const number = typeof value === 'bigint' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < minimum)
      throw invalid(this.where(key), `an integer of at least ${minimum}`);
    return number;
  }

  number(keys: string | readonly string[]): number | undefined {
    const found = this.pick(asList(keys));
    if (!found) return undefined;
    const value = typeof found[1] === 'bigint' ? Number(found[1]) : found[1];
    if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(this.where(found[0]), 'a number');
    return value;
  }

  strings(keys: string | readonly string[]): string[] {
    const found = this.pick(asList(keys));
    if (!found) return [];
    const [key, value] = found;
    if (!Array.isArray(value) || value.length > MAX_LIST || value.some((item) => typeof item !== 'string'))
      throw invalid(this.where(key), `a list of at most ${MAX_LIST} strings`);
    return [...new Set((value as string[]).map((item) => item.trim()).filter(Boolean))];
  }

  /** The raw value of a key (for fields with several accepted shapes). */
  raw(keys: string | readonly string[]): [string, unknown] | undefined {
    return this.pick(asList(keys));
  }

  table(key: string): TomlTable | undefined {
    const found = this.pick([key]);
    if (!found) return undefined;
    if (!isTable(found[1])) throw invalid(this.where(key), 'a table');
    return new TomlTable(found[1], this.where(key), this.warnings);
  }

  /** An array of tables (`[[settings]]`); a single table is accepted as a list of one. */
  tables(key: string): TomlTable[] {
    const found = this.pick([key]);
    if (!found) return [];
    const items = Array.isArray(found[1]) ? found[1] : [found[1]];
    if (items.length > MAX_LIST || !items.every(isTable))
      throw invalid(this.where(key), `a list of at most ${MAX_LIST} tables`);
    return items.map((item, index) => new TomlTable(item, `${this.where(key)}[${index}]`, this.warnings));
  }

  /** Records every key that was never read as a warning. */
  finish(): void {
    for (const key of Object.keys(this.value)) {
      if (!this.used.has(key)) this.warnings.push(`unknown field "${this.where(key)}" ignored`);
    }
  }
}

function asList(keys: string | readonly string[]): readonly string[] {
  return typeof keys === 'string' ? [keys] : keys;
}

function invalid(where: string, expected: string): HandFieldProblem {
  return new HandFieldProblem('invalid_field', `"${where}" must be ${expected}`);
}

/** A plain TOML table (not an array, not a date). */
export function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
