import { AgentConfigError } from './errors/agent-config-error.js';

/** Default lease of a running turn: 10 s (a dead orchestrator's turn is taken over about this long after). */
export const DEFAULT_TURN_LEASE_MS = 10_000;
/** Shortest lease accepted: renewals must have time to reach the database on a loaded machine. */
export const MIN_LEASE_MS = 300;
/** Expired leases are looked for at least this often (and at most every third of a lease). */
const MAX_SWEEP_EVERY_MS = 1_000;

/** When a lease holder renews and when others look for leases to take over. */
export interface LeaseSchedule {
  readonly leaseMs: number;
  /** A third of the lease: two renewals may fail before it expires. */
  readonly renewEveryMs: number;
  /** How often expired leases are looked for: a third of the lease, at most a second. */
  readonly sweepEveryMs: number;
}

/**
 * The timing of a database lease (turns and jobs share it). Expiry itself is always judged by the
 * database clock (`now()`), never by a process clock, so orchestrators whose clocks disagree by seconds
 * still agree on who holds a lease; the intervals here only pace the work.
 */
export function leaseSchedule(leaseMs: number): LeaseSchedule {
  if (!Number.isFinite(leaseMs) || leaseMs < MIN_LEASE_MS)
    throw new AgentConfigError(`a lease must last at least ${MIN_LEASE_MS} ms (got ${leaseMs})`, {
      field: 'leaseMs',
    });
  return {
    leaseMs,
    renewEveryMs: Math.floor(leaseMs / 3),
    sweepEveryMs: Math.min(MAX_SWEEP_EVERY_MS, Math.floor(leaseMs / 3)),
  };
}
