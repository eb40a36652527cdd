import { describe, expect, it } from '@jest/globals';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from './talon-error.js';
import { fromWireError, toWireError } from './wire-error.js';

describe('TalonError', () => {
  it('round-trips through the wire with code, details and retryable', () => {
    const error = new TalonError(ERROR_CODES.TIMEOUT, 'Worker did not answer in 100 ms; retry later.', {
      details: { timeoutMs: 100 },
      retryable: true,
    });
    const back = fromWireError(JSON.parse(JSON.stringify(toWireError(error))));
    expect(TalonError.isInstance(back)).toBe(true);
    expect(back.code).toBe('TIMEOUT');
    expect(back.details).toEqual({ timeoutMs: 100 });
    expect(back.retryable).toBe(true);
  });

  it('hides the message of an unexpected error', () => {
    expect(toWireError(new Error('db password is hunter2'))).toEqual({
      code: 'INTERNAL',
      message: expect.not.stringContaining('hunter2'),
    });
    expect(TalonError.isInstance(new Error('x'))).toBe(false);
  });
});
