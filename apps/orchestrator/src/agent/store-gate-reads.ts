import type { ApprovalStore, GrantStore } from '@talon/agent';
import type { GateReads } from './gate-reads.js';

/** A gated call's reads from the grant and approval stores, as they are. */
export class StoreGateReads implements GateReads {
  constructor(
    private readonly grantStore: Pick<GrantStore, 'get'>,
    private readonly approvalStore: Pick<ApprovalStore, 'findByCall'>,
  ) {}

  grants(sessionId: string) {
    return this.grantStore.get(sessionId);
  }

  approval(sessionId: string, callKey: string) {
    return this.approvalStore.findByCall(sessionId, callKey);
  }
}
