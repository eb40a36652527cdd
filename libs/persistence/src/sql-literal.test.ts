import { describe, expect, it } from '@jest/globals';
import { sqlLiteral } from './sql-literal.js';

describe('sqlLiteral', () => {
  it('writes NULL, integers and quoted text', () => {
    expect(sqlLiteral(null)).toBe('NULL');
    expect(sqlLiteral(42)).toBe('42');
    expect(sqlLiteral(-7)).toBe('-7');
    expect(sqlLiteral('plain')).toBe("'plain'");
  });

  it('doubles quotes, and doubles backslashes inside an E literal', () => {
    expect(sqlLiteral("it's")).toBe("'it''s'");
    expect(sqlLiteral("'); DROP TABLE audit_event; --")).toBe("'''); DROP TABLE audit_event; --'");
    expect(sqlLiteral('a\\b')).toBe(" E'a\\\\b'");
  });

  it('refuses what is neither an integer nor text', () => {
    expect(() => sqlLiteral(1.5)).toThrow(RangeError);
    expect(() => sqlLiteral(Number.NaN)).toThrow(RangeError);
    expect(() => sqlLiteral(2 ** 60)).toThrow(RangeError);
    expect(() => sqlLiteral({} as unknown as string)).toThrow(TypeError);
  });
});
