import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { checkRegexSafety } from '@talon/safety';

/**
 * Longest JSON Schema `pattern` accepted. Schemas come from tool authors and MCP servers, whose patterns
 * can be long (an address format, an enumeration); the cap only stops a pattern built to be expensive.
 */
export const MAX_SCHEMA_PATTERN_LENGTH = 10_000;

/**
 * An ajv `code.regExp` engine that refuses, at schema compile time, every pattern Talon's one ReDoS
 * guard refuses (`checkRegexSafety` of `@talon/safety`). JSON Schema `pattern` runs synchronously on
 * the caller's thread, so a timeout cannot stop a runaway match: the shape check is the defence here.
 */
export const guardedRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const verdict = checkRegexSafety(pattern, { maxLength: MAX_SCHEMA_PATTERN_LENGTH, flags });
    if (!verdict.safe && verdict.reason !== 'invalid')
      throw new Error(
        `pattern "${pattern.slice(0, 100)}" can backtrack catastrophically (${verdict.message}); simplify it`,
      );
    return new RegExp(pattern, flags);
  },
  { code: 'new RegExp' },
);
