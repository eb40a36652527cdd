import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { ApprovalRecord } from '../approval-store.js';

/** The approval was settled before this decision arrived (by a person, another orchestrator or the timeout). */
export class ApprovalAlreadyResolvedError extends TalonError {
  constructor(readonly record: ApprovalRecord) {
    super(
      ERROR_CODES.NAME_CONFLICT,
      `Approval ${record.id} is already ${record.status}${record.resolvedBy ? ` (by ${record.resolvedBy})` : ''}; nothing changed.`,
      { details: { approvalId: record.id, status: record.status, decision: record.decision } },
    );
  }
}
