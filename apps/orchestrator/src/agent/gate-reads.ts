import type { ApprovalRecord, SessionGrants } from '@talon/agent';

/** What a gated call reads before its policy decision. */
export interface GateReading {
  /** The latest approval asked for this call, if any. */
  approval: ApprovalRecord | undefined;
  grants: SessionGrants;
}

/** Reads a gated call's approval and its session's grants together (see {@link PolicyGate}). */
export interface GateReads {
  read(sessionId: string, callKey: string): Promise<GateReading>;
}
