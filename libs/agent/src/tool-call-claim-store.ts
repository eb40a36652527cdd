import type { TurnFence } from './turn-lease-store.js';

/** A tool call about to be dispatched. */
export interface ToolCallToClaim {
  readonly callId: string;
  readonly tool: string;
}

/** What {@link ToolCallClaimStore.claim} did. */
export interface ToolCallClaimResult {
  /** False when the fence is leased and its owner no longer holds the lease: nothing was claimed. */
  readonly held: boolean;
  /** The calls this owner claimed now; a call missing here was claimed before (it must not run again). */
  readonly claimed: ReadonlySet<string>;
}

/**
 * Records that a tool call is being started, once. The first claim of a (session, call id) wins, so a
 * call runs at most once whichever orchestrators hold the turn; a claimed call without a stored result
 * was interrupted (its owner died while it ran) and is never dispatched again.
 */
export interface ToolCallClaimStore {
  claim(
    sessionId: string,
    turnId: string,
    calls: readonly ToolCallToClaim[],
    fence: TurnFence,
  ): Promise<ToolCallClaimResult>;
  /** Which of these calls were claimed (started) by anyone. */
  started(sessionId: string, callIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** Forgets the session's claims once its turn is over (every call then has a stored result). */
  forget(sessionId: string): Promise<void>;
}
