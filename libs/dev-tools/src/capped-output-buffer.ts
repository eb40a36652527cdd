/** Marker appended to output that was cut at its cap. */
export const TRUNCATION_MARKER = '\n[… output truncated by Talon: {omitted} more bytes not shown]';

/**
 * Keeps the first `capBytes` bytes of a stream and counts the rest, so a chatty process can never
 * grow memory without bound; the process keeps running and its pipe keeps draining.
 */
export class CappedOutputBuffer {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private omitted = 0;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer): void {
    const room = this.capBytes - this.kept;
    if (room > 0) {
      const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
      this.chunks.push(part);
      this.kept += part.length;
    }
    this.omitted += Math.max(0, chunk.length - Math.max(0, room));
  }

  get truncated(): boolean {
    return this.omitted > 0;
  }

  /** The kept bytes as UTF-8 (a character cut at the cap becomes U+FFFD), plus the marker if cut. */
  text(): string {
    const body = Buffer.concat(this.chunks).toString('utf8');
    return this.truncated ? body + TRUNCATION_MARKER.replace('{omitted}', String(this.omitted)) : body;
  }
}
