/** An event with the id the server stamped on it. */
export interface LoggedEvent {
  sessionId: string;
  eventId?: string;
}

/** Default bounds of {@link SessionEventLog}. */
export const DEFAULT_EVENT_LOG_LIMITS = { eventsPerSession: 500, sessions: 1000 } as const;

/**
 * The recent events of each session, so a client whose stream was cut can resume after the last event it
 * saw (SSE `Last-Event-ID`). Bounded: the oldest events of a session, and the least recently written
 * sessions, fall out first; a resume from an id no longer held replays nothing and follows live.
 */
export class SessionEventLog<Event extends LoggedEvent = LoggedEvent> {
  private readonly sessions = new Map<string, Event[]>();

  constructor(
    private readonly limits: { eventsPerSession: number; sessions: number } = DEFAULT_EVENT_LOG_LIMITS,
  ) {}

  append(event: Event): void {
    const events = this.sessions.get(event.sessionId) ?? [];
    this.sessions.delete(event.sessionId); // re-inserted last: Map order is the recency order
    events.push(event);
    if (events.length > this.limits.eventsPerSession)
      events.splice(0, events.length - this.limits.eventsPerSession);
    this.sessions.set(event.sessionId, events);
    if (this.sessions.size > this.limits.sessions) this.sessions.delete(this.sessions.keys().next().value!);
  }

  /** Whether `eventId` is still held for the session (else a resume from it cannot be complete). */
  knows(sessionId: string, eventId: string): boolean {
    return (this.sessions.get(sessionId) ?? []).some((event) => event.eventId === eventId);
  }

  /** The session's events after `eventId`, oldest first; empty when the id is unknown. */
  after(sessionId: string, eventId: string): Event[] {
    const events = this.sessions.get(sessionId) ?? [];
    const index = events.findIndex((event) => event.eventId === eventId);
    return index < 0 ? [] : events.slice(index + 1);
  }
}
