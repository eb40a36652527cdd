/** What one audit record says, before it is linked into the chain. */
export interface AuditRecord {
  /** ISO-8601 time with milliseconds. */
  at: string;
  /** e.g. `tool.call`, `approval.decision`, `policy.change`, `extension.install`. */
  kind: string;
  /** Who acted: `session:<id>`, `operator`, `system`, `model`. */
  actor: string;
  sessionId: string | null;
  callId: string | null;
  tool: string | null;
  /** sha256 of the canonical params (sensitive params redacted first). */
  argsHash: string | null;
  /** `ok`, an error code, `approved`, `denied`, … */
  outcome: string;
  durationMs: number | null;
  /** JSON-safe facts; never secrets or sensitive params. */
  data: Record<string, unknown>;
}

/** A record as stored: linked to the previous one by hash. */
export interface ChainedAuditRecord extends AuditRecord {
  id: bigint | number | string;
  prevHash: string;
  hash: string;
}

/** The `prevHash` of the first record. */
export const GENESIS_HASH = '0'.repeat(64);
