import { randomBytes } from 'node:crypto';
import { NATS_USERS, type NatsUser } from '@talon/contracts';

/** A password for each Talon NATS user. */
export type NatsCredentials = Record<NatsUser, string>;

/** New random passwords (24 bytes each, base64url: no characters that need quoting anywhere). */
export function generateNatsCredentials(): NatsCredentials {
  return Object.fromEntries(
    NATS_USERS.map((user) => [user, randomBytes(24).toString('base64url')]),
  ) as NatsCredentials;
}
