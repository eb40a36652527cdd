import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** No approval has that id. */
export class ApprovalNotFoundError extends TalonError {
  constructor(approvalId: string) {
    super(
      ERROR_CODES.NOT_FOUND,
      `No approval with id ${approvalId}; list the pending approvals to find the right id.`,
      { details: { approvalId } },
    );
  }
}
