import type { Session } from '@talon/contracts';
import { call } from '../api/talon-api.js';
import { useCall } from '../api/use-call.js';
import { ErrorBanner } from '../components/error-banner.js';
import { SessionView } from './session-view.js';

/** The session list, and one session's live timeline when an id is in the route. */
export function SessionsPage({ sessionId }: { sessionId?: string }) {
  const sessions = useCall<{ sessions: Session[] }>('sessions.list', { limit: 100 }, 10_000);
  const create = async () => {
    const session = await call<Session>('sessions.create', {
      title: `console ${new Date().toLocaleString()}`,
    });
    window.location.hash = `#/sessions/${session.id}`;
  };
  if (sessionId) return <SessionView key={sessionId} sessionId={sessionId} />;
  return (
    <section aria-labelledby="sessions-title">
      <h1 id="sessions-title">Sessions</h1>
      <button type="button" onClick={() => void create()}>
        New session
      </button>
      <ErrorBanner error={sessions.error} />
      <table>
        <thead>
          <tr>
            <th>title</th>
            <th>messages</th>
            <th>updated</th>
            <th>kind</th>
          </tr>
        </thead>
        <tbody>
          {sessions.data?.sessions.map((session) => (
            <tr key={session.id}>
              <td>
                <a href={`#/sessions/${session.id}`}>{session.title || session.id}</a>
              </td>
              <td>{session.messageCount ?? '—'}</td>
              <td>{new Date(session.updatedAt).toLocaleString()}</td>
              <td>{session.autonomous ? 'autonomous' : 'interactive'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
