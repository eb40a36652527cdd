import type { LlmMessage } from '@talon/llm';
import type { TurnFence } from './turn-lease-store.js';

/** One persisted message of a session. `seq` starts at 1 and increases by one per message. */
export interface StoredMessage {
  readonly sessionId: string;
  readonly seq: number;
  /** The turn the message belongs to (the user message opens it). */
  readonly turnId: string;
  readonly message: LlmMessage;
  /** Epoch milliseconds. */
  readonly createdAt: number;
}

/**
 * Append-only message log of sessions. The loop appends every message as it happens (user, assistant
 * with its tool calls, each tool result), so a restart loses nothing and a turn can resume from it.
 */
export interface SessionStore {
  /**
   * Appends one message and returns it with its sequence number (unique per session: two writers
   * racing get consecutive numbers, never the same one). With a leased `fence` the write happens only
   * while its owner holds the session's turn lease; otherwise it throws {@link TurnLeaseLostError}.
   */
  append(sessionId: string, turnId: string, message: LlmMessage, fence?: TurnFence): Promise<StoredMessage>;
  /**
   * Appends several messages at once, in order, atomically (all or none), fenced like {@link append}. Optional: stores that can
   * write a batch in one transaction make a turn's tool results cost one commit instead of one each.
   */
  appendMany?(
    sessionId: string,
    turnId: string,
    messages: readonly LlmMessage[],
    fence?: TurnFence,
  ): Promise<readonly StoredMessage[]>;
  /** All messages of the session in sequence order (empty for an unknown session). */
  load(sessionId: string): Promise<readonly StoredMessage[]>;
  /**
   * Appends a turn's first message (the user's) and returns the log as it was before it, in one step,
   * fenced like {@link append}. Optional: a store that can do both in one statement saves a turn one
   * round trip, which it would otherwise spend on a `load` followed by an `append`.
   */
  openTurn?(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence?: TurnFence,
  ): Promise<{ history: readonly StoredMessage[]; appended: StoredMessage }>;
  /**
   * Appends a leased turn's last message and ends its lease (the lease row and the turn's tool call claims
   * go, as `TurnLeaseStore.release` does), in one step, fenced like {@link append}: nothing is
   * written or released when `fence.owner` no longer holds the lease. Optional: a store that can do both in
   * one statement saves a turn the round trip of its release.
   */
  closeTurn?(
    sessionId: string,
    turnId: string,
    message: LlmMessage,
    fence: TurnFence,
  ): Promise<StoredMessage>;
}
