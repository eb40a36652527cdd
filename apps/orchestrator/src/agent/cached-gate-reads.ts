import type { ApprovalRecord, SessionGrants } from '@talon/agent';
import { EpochReadCache, type ReadEpoch } from '@talon/persistence';
import type { GateReads } from './gate-reads.js';

/** The tables a gate reading comes from. */
const GATE_TABLES = ['session_grant', 'approval'];

/**
 * Gate reads shared while the change epoch of the gate's tables stands still (see `Database.changeEpoch`):
 * a gated call's read was about half of the orchestrator's CPU per call at concurrency 64 on PGlite
 * (measured), and nothing it reads changes without moving that epoch; the audit append of every call does
 * not.
 */
export class CachedGateReads implements GateReads {
  private readonly cache: EpochReadCache;

  constructor(
    private readonly inner: GateReads,
    epoch: ReadEpoch,
  ) {
    this.cache = new EpochReadCache(epoch, GATE_TABLES);
  }

  grants(sessionId: string): Promise<SessionGrants> {
    return this.cache.read(`grants ${sessionId}`, () => this.inner.grants(sessionId));
  }

  approval(sessionId: string, callKey: string): Promise<ApprovalRecord | undefined> {
    // The length keeps any two pairs apart.
    return this.cache.read(`approval ${sessionId.length}:${sessionId}${callKey}`, () =>
      this.inner.approval(sessionId, callKey),
    );
  }
}
