import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { WorkerLossReason } from '@talon/tool-runtime';

const WHY: Record<WorkerLossReason, string> = {
  gone: 'its worker instance disconnected',
  unresponsive: 'its worker instance stopped answering',
  not_held: 'its worker instance no longer holds it',
  no_ack: 'no worker instance acknowledged it',
};

/** The worker holding a call vanished before answering: the call may or may not have run. */
export class WorkerLostError extends TalonError {
  declare readonly details: { tool: string; callId: string; instanceId?: string; reason: WorkerLossReason };

  constructor(tool: string, callId: string, reason: WorkerLossReason, instanceId?: string) {
    super(
      ERROR_CODES.WORKER_LOST,
      `The call of tool "${tool}" was lost: ${WHY[reason]}${instanceId ? ` (${instanceId})` : ''}. It may have run partly; retry if running it again is safe.`,
      { details: { tool, callId, reason, ...(instanceId ? { instanceId } : {}) }, retryable: true },
    );
  }
}
