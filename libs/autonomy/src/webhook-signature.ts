import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How far a signed timestamp may be from now: 5 minutes. */
export const DEFAULT_WEBHOOK_TOLERANCE_MS = 300_000;

/** A new per-routine webhook secret: 32 random bytes, base64url, prefixed `whsec_`. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The signature header value for a body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function signWebhook(secret: string, body: string | Buffer, timestampSeconds: number): string {
  return `t=${timestampSeconds},v1=${hmac(secret, timestampSeconds, body)}`;
}

/** A verified call: the signed timestamp and the signature (its identity for replay protection). */
export type WebhookVerification =
  | { readonly ok: true; readonly timestampSeconds: number; readonly signature: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Checks a webhook call: the header parses, the timestamp is within `toleranceMs` of `now`, and one of
 * its `v1` signatures is the HMAC-SHA256 of `"<t>.<body>"` under the routine's secret (compared in
 * constant time). Replays inside the tolerance are refused by the caller: each signature is claimed
 * once, like a slot.
 */
export function verifyWebhook(
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  now: Date = new Date(),
  toleranceMs: number = DEFAULT_WEBHOOK_TOLERANCE_MS,
): WebhookVerification {
  if (header === undefined || header.length === 0) return { ok: false, reason: 'missing signature header' };
  if (header.length > 1024) return { ok: false, reason: 'signature header too long' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && value !== undefined && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === undefined || signatures.length === 0)
    return { ok: false, reason: 'signature header must be "t=<unix seconds>,v1=<hex hmac-sha256>"' };
  const skew = Math.abs(now.getTime() - timestamp * 1000);
  if (skew > toleranceMs)
    return {
      ok: false,
      reason: `timestamp is ${Math.round(skew / 1000)} s from now (tolerance ${toleranceMs / 1000} s)`,
    };
  const expected = Buffer.from(hmac(secret, timestamp, body), 'hex');
  const match = signatures.find((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  if (match === undefined) return { ok: false, reason: 'signature does not match the body' };
  return { ok: true, timestampSeconds: timestamp, signature: match };
}

function hmac(secret: string, timestampSeconds: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestampSeconds}.`).update(body).digest('hex');
}
