import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { EventReplayBuffer, type BufferedEvent } from '@talon/agent';
import { SUBJECTS, type ChatEvent } from '@talon/contracts';
import { NATS_CONNECTION } from '../config/orchestrator.constants.js';

/** How long a session's events are still collected after its last stream closed, for a reconnect. */
const KEEP_AFTER_LAST_LISTENER_MS = 60_000;
/** Sessions followed at once; the one idle longest is dropped first. */
const MAX_SESSIONS = 500;

type Listener = (buffered: BufferedEvent<ChatEvent>) => void;

interface FollowedSession {
  buffer: EventReplayBuffer<ChatEvent>;
  subscription: Subscription;
  listeners: Set<Listener>;
  idleTimer?: NodeJS.Timeout;
}

/** What `follow` gives a stream: the events it missed (or that it cannot resume), then live ones. */
export interface SessionFollow {
  /** Events after the client's `Last-Event-ID`; empty for a new stream. */
  missed: BufferedEvent<ChatEvent>[];
  /** True when the client sent an id this orchestrator cannot resume from: it must reload the session. */
  reset: boolean;
  close(): void;
}

/**
 * One NATS subscription per followed session, shared by its SSE streams, with the last events kept so a stream
 * cut by the network resumes with `Last-Event-ID`. The buffer outlives the last stream by a minute; a
 * reconnect that lands on another orchestrator, or comes later, is told to reload instead.
 */
@Injectable()
export class SessionEventHub implements OnModuleDestroy {
  private readonly sessions = new Map<string, FollowedSession>();
  /** Ids carry this epoch, so an id from another process is never mistaken for one of ours. */
  private readonly epoch = randomUUID().slice(0, 8);
  /** Counts buffers, so a session followed again after a pause never reuses an old buffer's ids. */
  private generation = 0;

  constructor(@Inject(NATS_CONNECTION) private readonly connection: NatsConnection) {}

  follow(sessionId: string, lastEventId: string | undefined, listener: Listener): SessionFollow {
    const session = this.sessions.get(sessionId) ?? this.start(sessionId);
    clearTimeout(session.idleTimer);
    session.idleTimer = undefined;
    const missed = lastEventId === undefined ? [] : session.buffer.after(lastEventId);
    session.listeners.add(listener);
    return {
      missed: missed ?? [],
      reset: lastEventId !== undefined && missed === undefined,
      close: () => {
        session.listeners.delete(listener);
        if (session.listeners.size === 0)
          session.idleTimer = setTimeout(() => this.stop(sessionId), KEEP_AFTER_LAST_LISTENER_MS).unref();
      },
    };
  }

  onModuleDestroy(): void {
    for (const sessionId of [...this.sessions.keys()]) this.stop(sessionId);
  }

  private start(sessionId: string): FollowedSession {
    if (this.sessions.size >= MAX_SESSIONS) {
      const idle = [...this.sessions.entries()].find(([, session]) => session.listeners.size === 0);
      if (idle) this.stop(idle[0]);
    }
    const buffer = new EventReplayBuffer<ChatEvent>(`${this.epoch}.${this.generation++}`);
    const listeners = new Set<Listener>();
    const subscription = this.connection.subscribe(SUBJECTS.sessionEvents(sessionId), {
      callback: (_error, message) => {
        const buffered = buffer.push(message.json<ChatEvent>());
        for (const listener of listeners) listener(buffered);
      },
    });
    const session: FollowedSession = { buffer, subscription, listeners };
    this.sessions.set(sessionId, session);
    return session;
  }

  private stop(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    clearTimeout(session.idleTimer);
    session.subscription.unsubscribe();
    this.sessions.delete(sessionId);
  }
}
