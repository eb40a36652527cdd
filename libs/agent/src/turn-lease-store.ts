/**
 * Who writes for a turn. With `leased`, every write (messages, tool call claims) is conditional on
 * `owner` still holding the session's turn lease, so an owner that lost it writes nothing; without, the
 * session is owned by something else (a job's lease) and only the claims' uniqueness applies.
 */
export interface TurnFence {
  readonly owner: string;
  readonly leased: boolean;
}

/** What {@link TurnLeaseStore.acquire} did. */
export interface TurnLeaseAcquisition {
  readonly acquired: boolean;
  /** The owner before, when the lease was taken over from another one (it had expired). */
  readonly previousOwner?: string;
}

/**
 * The leases of sessions' turns, in the database. Every comparison with the present uses the
 * database's clock, so the clocks of the orchestrators never decide who holds a lease.
 */
export interface TurnLeaseStore {
  /** Takes the session's lease for `owner` when it is free, expired, or already `owner`'s. */
  acquire(sessionId: string, turnId: string, owner: string, leaseMs: number): Promise<TurnLeaseAcquisition>;
  /** Extends the leases `owner` still holds among `sessionIds`; returns those it holds. */
  renew(owner: string, sessionIds: readonly string[], leaseMs: number): Promise<ReadonlySet<string>>;
  /** Ends the turn's lease (only `owner`'s); the database store also forgets the session's tool call claims. */
  release(sessionId: string, owner: string): Promise<void>;
  /** Lets every lease of `owner` expire now (a shutdown hands its waiting turns over at once). */
  expireAll(owner: string): Promise<number>;
  /** Sessions whose lease expired (their owner died), oldest first. */
  listExpired(limit: number): Promise<readonly string[]>;
}
