import { describe, expect, it } from '@jest/globals';
import { MAX_PREPARED_STATEMENTS, preparedStatementName } from './prepared-statements.js';

describe('preparedStatementName', () => {
  it('names the same text the same way and different texts differently', () => {
    const first = preparedStatementName('SELECT 1');
    expect(first).toMatch(/^talon_[0-9a-f]{20}$/);
    expect(preparedStatementName('SELECT 1')).toBe(first);
    expect(preparedStatementName('SELECT 2')).not.toBe(first);
  });

  it('names no more than the cap, so SQL built at run time runs unprepared instead of piling up', () => {
    const known = preparedStatementName('SELECT 1');
    for (let index = 0; index < MAX_PREPARED_STATEMENTS; index++)
      preparedStatementName(`SELECT ${index} + 1`);
    expect(preparedStatementName('SELECT "one more"')).toBeUndefined();
    expect(preparedStatementName('SELECT 1')).toBe(known);
  });
});
