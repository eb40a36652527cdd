import type { ApprovalRecord, SessionGrants } from '@talon/agent';
import { EpochReadCache, type ReadEpoch } from '@talon/persistence';
import type { GateReads } from './gate-reads.js';

/** The table the kept readings come from. */
const GRANT_TABLES = ['session_grant'];

/**
 * Gate reads with the session's grants shared while the change epoch of their table stands still (see
 * `Database.changeEpoch`): every gated call reads them, the read was about half of the orchestrator's CPU per
 * call at concurrency 64 on PGlite (measured), and the audit append of every call does not move that epoch.
 * A call's approval is read afresh: it is read only when the policy asks, and a caller who approved a call
 * and calls again must find it approved at once, before the change's notice reaches this orchestrator.
 */
export class CachedGateReads implements GateReads {
  private readonly cache: EpochReadCache;

  constructor(
    private readonly inner: GateReads,
    epoch: ReadEpoch,
  ) {
    this.cache = new EpochReadCache(epoch, GRANT_TABLES);
  }

  grants(sessionId: string): Promise<SessionGrants> {
    return this.cache.read(sessionId, () => this.inner.grants(sessionId));
  }

  approval(sessionId: string, callKey: string): Promise<ApprovalRecord | undefined> {
    return this.inner.approval(sessionId, callKey);
  }
}
