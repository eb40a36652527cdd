import { InvalidToolParamsError } from './invalid-tool-params-error.js';
import { assertSafeRegex } from './regex-safety-guard.js';
import { UnsafePatternError } from './unsafe-pattern-error.js';

/** Compiles a grep pattern: a fixed string is escaped; a regex passes the safety guard first. */
export function regexOf(
  pattern: string,
  fixedString: boolean,
  ignoreCase: boolean,
  maxLength: number,
): RegExp {
  if (pattern.length > maxLength)
    throw new UnsafePatternError(pattern, `longer than ${maxLength} characters`);
  const flags = ignoreCase ? 'i' : '';
  if (fixedString) return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  assertSafeRegex(pattern, maxLength);
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    throw new InvalidToolParamsError(
      'grep',
      'pattern',
      `is not a valid regular expression (${(error as Error).message})`,
    );
  }
}
