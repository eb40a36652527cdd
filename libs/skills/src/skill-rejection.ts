import type { SkillRejection, SkillRejectionReason } from '@talon/contracts';

/** The outcome of parsing one SKILL.md. */
export type SkillParseResult<T> = { ok: true; skill: T } | { ok: false; rejection: SkillRejection };

/** Builds a rejection result. */
export function reject(
  reason: SkillRejectionReason,
  message: string,
  path: string,
  name?: string,
): { ok: false; rejection: SkillRejection } {
  return { ok: false, rejection: { reason, message, path, ...(name !== undefined ? { name } : {}) } };
}
