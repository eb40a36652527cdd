import { checkRegexSafety } from '@talon/safety';
import { InvalidToolParamsError } from './invalid-tool-params-error.js';
import { UnsafePatternError } from './unsafe-pattern-error.js';

/**
 * Compiles a grep pattern: a fixed string is escaped; a regex passes Talon's one ReDoS guard
 * (`checkRegexSafety` of `@talon/safety`) first. The match itself still runs under grep's time cap
 * (a worker terminated at the deadline), since a shape check cannot prove a pattern linear.
 */
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
  const verdict = checkRegexSafety(pattern, { maxLength, flags });
  if (!verdict.safe && verdict.reason === 'invalid')
    throw new InvalidToolParamsError(
      'grep',
      'pattern',
      `is not a valid regular expression (${verdict.message})`,
    );
  if (!verdict.safe) throw new UnsafePatternError(pattern, verdict.message);
  return new RegExp(pattern, flags);
}
