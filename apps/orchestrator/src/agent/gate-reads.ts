import type { ApprovalRecord, SessionGrants } from '@talon/agent';

/** What a gated call reads for its policy decision (see {@link PolicyGate}). */
export interface GateReads {
  /** The session's grants: read by every gated call. */
  grants(sessionId: string): Promise<SessionGrants>;
  /** The latest approval asked for this call, if any: read only when the policy asks for one. */
  approval(sessionId: string, callKey: string): Promise<ApprovalRecord | undefined>;
}
