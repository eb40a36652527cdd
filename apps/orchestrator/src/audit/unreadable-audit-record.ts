import { timeOrderedUuid } from '@talon/audit';
import { isUuid, type AuditOutboxRecord } from '@talon/contracts';

/**
 * The record kept in place of an outbox entry that is not a record (only the orchestrator writes outboxes,
 * so one is a bug's or a damaged disk's trace): it is stored as an `audit.unreadable` row, never dropped.
 * `id` is the entry's own record id when it carries a valid one, so a second delivery is still stored once;
 * otherwise a time-ordered one, as `AuditLog.append` gives.
 */
export function unreadableAuditRecord(
  id: string | undefined,
  where: Record<string, unknown>,
  error: unknown,
): AuditOutboxRecord {
  return {
    recordId: id && isUuid(id) ? id : timeOrderedUuid(),
    at: new Date().toISOString(),
    kind: 'audit.unreadable',
    actor: 'system',
    sessionId: null,
    callId: null,
    tool: null,
    argsHash: null,
    outcome: 'unreadable',
    durationMs: null,
    data: { ...where, error: String((error as Error)?.message ?? error).slice(0, 500) },
  };
}
