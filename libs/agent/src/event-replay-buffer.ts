/** Default number of events a buffer keeps for resuming a cut stream. */
export const DEFAULT_EVENT_REPLAY_CAPACITY = 2_000;

/** One buffered event with the id a stream sends for it (`<epoch>-<seq>`). */
export interface BufferedEvent<T> {
  readonly id: string;
  readonly event: T;
}

/**
 * The last events of one stream, each with an id, so a client that reconnects with `Last-Event-ID` gets what
 * it missed and nothing twice. Ids carry the buffer's epoch (one per process and stream): an id from another
 * process or one that fell out of the buffer cannot be resumed, and `after` says so instead of guessing.
 */
export class EventReplayBuffer<T> {
  private readonly events: BufferedEvent<T>[] = [];
  private nextSeq = 1;

  constructor(
    readonly epoch: string,
    private readonly capacity: number = DEFAULT_EVENT_REPLAY_CAPACITY,
  ) {}

  /** Stores an event and returns its id. */
  push(event: T): BufferedEvent<T> {
    const buffered = { id: `${this.epoch}-${this.nextSeq++}`, event };
    this.events.push(buffered);
    if (this.events.length > this.capacity) this.events.splice(0, this.events.length - this.capacity);
    return buffered;
  }

  /**
   * The events after `lastId`, oldest first; `undefined` when `lastId` is not one of this buffer's ids or
   * events after it were already dropped (the client must reload instead).
   */
  after(lastId: string): BufferedEvent<T>[] | undefined {
    const dash = lastId.lastIndexOf('-');
    if (dash <= 0 || lastId.slice(0, dash) !== this.epoch) return undefined;
    const seq = Number(lastId.slice(dash + 1));
    if (!Number.isInteger(seq) || seq < 0 || seq >= this.nextSeq) return undefined;
    const oldest = this.nextSeq - this.events.length;
    if (seq + 1 < oldest) return undefined;
    return this.events.slice(seq + 1 - oldest);
  }
}
