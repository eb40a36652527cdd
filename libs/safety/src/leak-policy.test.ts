import { describe, expect, it } from '@jest/globals';
import { SecretLeakError } from './errors/secret-leak-error.js';
import { LeakPolicy } from './leak-policy.js';

const KEY = 'ghp_R2d2C3poLuke0Leia1Han2Solo3Chewie4Yo';

describe('LeakPolicy', () => {
  const policy = new LeakPolicy();

  it('blocks egress that carries a secret, naming the kind but not the value', () => {
    const error = (() => {
      try {
        policy.enforce(`POST body with ${KEY}`, 'egress');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SecretLeakError);
    expect((error as SecretLeakError).code).toBe('SECRET_LEAK');
    expect((error as SecretLeakError).details).toEqual({ destination: 'egress', kinds: ['github_token'] });
    expect((error as SecretLeakError).message).not.toContain(KEY);
  });

  it('blocks egress carrying a known secret value', () => {
    expect(() => policy.enforce('password=s3cr3t-value', 'egress', ['s3cr3t-value'])).toThrow(
      SecretLeakError,
    );
  });

  it('redacts text bound for the model', () => {
    expect(policy.enforce(`token ${KEY}`, 'model')).toEqual({
      action: 'redact',
      text: 'token [REDACTED:github_token]',
      findings: [{ kind: 'github_token', start: 6, end: 6 + KEY.length }],
    });
  });

  it('warns on local writes and leaves the text as it is', () => {
    const decision = policy.enforce(`token ${KEY}`, 'local_write');
    expect(decision.action).toBe('warn');
    expect(decision.text).toBe(`token ${KEY}`);
    expect(decision.findings).toHaveLength(1);
  });

  it('passes clean text everywhere', () => {
    for (const destination of ['egress', 'model', 'local_write'] as const) {
      expect(
        policy.enforce('nothing to see e3b0c44298fc1c149afbf4c8996fb92427ae41e4', destination),
      ).toMatchObject({ action: 'none' });
    }
  });

  it('takes overrides and rejects unknown actions', () => {
    expect(new LeakPolicy({ actions: { local_write: 'redact' } }).enforce(KEY, 'local_write').text).toBe(
      '[REDACTED:github_token]',
    );
    expect(() => new LeakPolicy({ actions: { model: 'shrug' as never } })).toThrow(/not valid/);
  });
});
