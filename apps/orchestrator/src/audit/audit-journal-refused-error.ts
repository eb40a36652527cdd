import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * The audit journal did not take a record: it is not started or is stopping, or it already holds as many
 * uncommitted records as it may. Never seen by a caller: the audit log commits that record directly and
 * the call waits for the commit, as it does without a journal.
 */
export class AuditJournalRefusedError extends TalonError {
  constructor(reason: 'not-taking-records' | 'full', held?: number) {
    super(
      ERROR_CODES.UNAVAILABLE,
      reason === 'full'
        ? `The audit journal holds ${held} uncommitted records, its most; this record is committed directly.`
        : 'The audit journal is not taking records (not started, or stopping); this record is committed directly.',
      { details: { reason, ...(held === undefined ? {} : { held }) }, retryable: true },
    );
  }
}
