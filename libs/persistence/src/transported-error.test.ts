import { describe, expect, it } from '@jest/globals';
import { DriverAdapterError } from '@prisma/driver-adapter-utils';
import { rebuildError, transportError } from './transported-error.js';
import { isUniqueViolation } from './unique-violation.js';

/** Through `postMessage` and back, as the PGlite thread's replies travel. */
const across = (error: unknown): Error => rebuildError(structuredClone(transportError(error)));

describe('errors crossing from the PGlite thread', () => {
  it("keep a PostgreSQL error's SQLSTATE and fields, so isUniqueViolation reads it as before", () => {
    const original = Object.assign(new Error('duplicate key value violates unique constraint "x"'), {
      name: 'DatabaseError',
      code: '23505',
      detail: 'Key (chain_seq)=(3) already exists.',
      severity: 'ERROR',
      position: undefined,
    });
    const rebuilt = across(original);
    expect(rebuilt).toBeInstanceOf(Error);
    expect(rebuilt).toMatchObject({
      name: 'DatabaseError',
      message: original.message,
      code: '23505',
      detail: original.detail,
    });
    expect(isUniqueViolation(rebuilt)).toBe(true);
    expect(isUniqueViolation(structuredClone(original))).toBe(false); // what plain cloning would give
  });

  it("rebuild Prisma's DriverAdapterError with its mapped cause, which Prisma's engine reads", () => {
    const cause = {
      kind: 'UniqueConstraintViolation',
      constraint: { fields: ['chain_seq'] },
      originalCode: '23505',
    };
    const rebuilt = across(
      new DriverAdapterError(cause as ConstructorParameters<typeof DriverAdapterError>[0]),
    );
    expect(rebuilt).toBeInstanceOf(DriverAdapterError);
    expect(rebuilt.name).toBe('DriverAdapterError');
    expect(rebuilt.cause).toEqual(cause);
    expect(isUniqueViolation(rebuilt)).toBe(true);
  });

  it('keep nested causes, and carry values that are not errors as text', () => {
    const inner = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    const rebuilt = across(new Error('write failed', { cause: inner }));
    expect(rebuilt.cause).toBeInstanceOf(Error);
    expect(rebuilt.cause).toMatchObject({ message: 'disk full', code: 'ENOSPC' });
    expect(across('plain text')).toMatchObject({ name: 'Error', message: 'plain text' });
  });

  it('drop fields that cannot be cloned instead of failing the reply', () => {
    const error = Object.assign(new Error('odd'), { code: 'X1', handle: () => undefined, big: 1n });
    const transported = transportError(error);
    expect(() => structuredClone(transported)).not.toThrow();
    expect(rebuildError(transported)).toMatchObject({ code: 'X1' });
  });
});
