import { useCallback, useEffect, useReducer, useRef, useState, type FormEvent } from 'react';
import type { ChatEvent, ChatSendReply, SessionDetail, SessionsCancelReply } from '@talon/contracts';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { openEventStream } from '../api/session-event-stream.js';
import { ErrorBanner } from '../components/error-banner.js';
import { SessionTimeline, type TimelineItem } from './session-timeline.js';
import { TimelineList } from './timeline-list.js';

/** One session: stored history, then its events live over SSE, and a chat box. */
export function SessionView({ sessionId }: { sessionId: string }) {
  const timeline = useRef(new SessionTimeline()).current;
  const [, render] = useReducer((value: number) => value + 1, 0);
  const [session, setSession] = useState<SessionDetail>();
  const [error, setError] = useState<ApiError>();
  const [stream, setStream] = useState('connecting');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const frame = useRef(0);
  // Many events arrive in one frame when a turn streams: render once per animation frame.
  const schedule = useCallback(() => {
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      render();
    });
  }, []);

  const loads = useRef(0);
  const loadHistory = useCallback(async () => {
    const load = ++loads.current;
    try {
      const detail = await call<SessionDetail>('sessions.get', { id: sessionId, includeMessages: true });
      // Two loads in flight: only the later one's answer is applied (it is at least as new).
      if (load !== loads.current) return;
      setSession(detail);
      timeline.loadHistory(detail.messages ?? []);
      schedule();
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    }
  }, [sessionId, timeline, schedule]);

  useEffect(() => {
    void loadHistory();
    const close = openEventStream<ChatEvent>(`/v1/sessions/${encodeURIComponent(sessionId)}/events`, {
      onEvent: (event) => {
        // The server could not replay what this page missed: the stored messages fill the gap.
        if (event.type === 'stream_reset') return void loadHistory();
        timeline.apply(event);
        schedule();
        if (event.type === 'turn_finished') void loadHistory();
      },
      onOpen: (_resumed, withLastEventId) => {
        setStream('live');
        // A reconnect with Last-Event-ID gets the missed events from the server. Any other open reloads,
        // the first one too: what happened between the first load and the stream going live (a turn that
        // finished then) is only in the stored history.
        if (!withLastEventId) void loadHistory();
      },
      onDrop: (reason, retryInMs) =>
        setStream(`reconnecting in ${Math.round(retryInMs / 1000)} s (${reason})`),
      onFatal: (failure) => (setError(failure), setStream('closed')),
    });
    return () => {
      close();
      cancelAnimationFrame(frame.current);
    };
  }, [sessionId, timeline, loadHistory, schedule]);

  const revision = useCallback((item: TimelineItem) => timeline.revision(item), [timeline]);
  const onResolved = useCallback(() => void loadHistory(), [loadHistory]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const text = message.trim();
    if (!text) return;
    setMessage('');
    setBusy(true);
    setError(undefined);
    timeline.addUserMessage(text);
    schedule();
    try {
      await call<ChatSendReply>('chat.send', { sessionId, message: text });
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    } finally {
      setBusy(false);
      void loadHistory();
    }
  };

  // The turn runs where it runs: sessions.cancel finds it on any orchestrator and stops its tool calls.
  const cancel = async () => {
    setCancelling(true);
    setError(undefined);
    try {
      const reply = await call<SessionsCancelReply>('sessions.cancel', { id: sessionId });
      if (!reply.cancelled)
        setError(new ApiError('NOT_RUNNING', 'No turn was running: nothing to cancel.', 0));
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    } finally {
      setCancelling(false);
    }
  };
  const running = busy || timeline.turnRunning;

  return (
    <section className="session" aria-labelledby="session-title">
      <h1 id="session-title">
        <a href="#/sessions">Sessions</a> / {session?.title ?? sessionId}
      </h1>
      <p className="muted">
        stream: <span data-testid="stream-state">{stream}</span> · {timeline.items.length.toLocaleString()}{' '}
        rows
      </p>
      <ErrorBanner error={error} />
      <TimelineList
        items={timeline.items}
        version={timeline.version}
        revision={revision}
        onResolved={onResolved}
      />
      <form className="chat" onSubmit={(event) => void send(event)}>
        <label htmlFor="chat-message" className="visually-hidden">
          Message
        </label>
        <textarea
          id="chat-message"
          value={message}
          rows={2}
          placeholder="Send a message (Ctrl+Enter)"
          onChange={(event) => setMessage(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event);
          }}
        />
        <button type="submit" disabled={message.trim() === ''}>
          {busy ? 'Send (a turn is running)' : 'Send'}
        </button>
        {running && (
          <button
            type="button"
            className="cancel"
            data-testid="cancel-turn"
            disabled={cancelling}
            onClick={() => void cancel()}
          >
            {cancelling ? 'Cancelling…' : 'Cancel turn'}
          </button>
        )}
      </form>
    </section>
  );
}
