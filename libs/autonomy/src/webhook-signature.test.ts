import { describe, expect, it } from '@jest/globals';
import { generateWebhookSecret, signWebhook, verifyWebhook } from './webhook-signature.js';

describe('webhook signatures', () => {
  const secret = generateWebhookSecret();
  const now = new Date('2027-01-01T00:00:00Z');
  const t = Math.floor(now.getTime() / 1000);
  const body = '{"incident":42}';

  it('accepts a fresh signature of the exact body', () => {
    const verdict = verifyWebhook(secret, signWebhook(secret, body, t), body, now);
    expect(verdict.ok).toBe(true);
  });

  it('refuses missing, malformed, wrong-secret, tampered and stale signatures', () => {
    expect(verifyWebhook(secret, undefined, body, now)).toEqual({
      ok: false,
      reason: 'missing signature header',
    });
    expect(verifyWebhook(secret, 'sha256=abc', body, now).ok).toBe(false);
    expect(verifyWebhook(secret, signWebhook(generateWebhookSecret(), body, t), body, now)).toEqual({
      ok: false,
      reason: 'signature does not match the body',
    });
    expect(verifyWebhook(secret, signWebhook(secret, body, t), '{"incident":43}', now).ok).toBe(false);
    const stale = verifyWebhook(secret, signWebhook(secret, body, t - 301), body, now);
    expect(stale).toMatchObject({ ok: false, reason: expect.stringMatching(/timestamp is 301 s from now/) });
  });
});
