/**
 * How long after a start or a reconnect the catalog may still be missing tools that exist: until every
 * worker has answered the scatter or announced again. Inside that window a missing tool is a retryable
 * UNAVAILABLE, not UNKNOWN_TOOL (which tells the caller never to retry). Pure state; the caller passes
 * the time.
 */
export class CatalogWarmUp {
  private until = 0;

  /** `windowMs`: the longest a live worker can stay silent (its announcement TTL). */
  constructor(private readonly windowMs: number) {}

  /** The catalog starts over (process start, NATS reconnect). */
  begin(now: number): void {
    this.until = Math.max(this.until, now + this.windowMs);
  }

  isWarming(now: number): boolean {
    return now < this.until;
  }

  /** Epoch ms at which the window closes (0 when it never opened). */
  get endsAt(): number {
    return this.until;
  }
}
