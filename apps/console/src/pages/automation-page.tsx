import type { HandsListReply, Job, Routine } from '@talon/contracts';
import { useCall } from '../api/use-call.js';
import { ActionButton } from '../components/action-button.js';
import { ErrorBanner } from '../components/error-banner.js';

/** "in 3 h 5 min" / "2 min ago": the next fire in words. */
function inWords(iso: string): string {
  const ms = new Date(iso).getTime() - Date.now();
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const text =
    minutes < 1
      ? 'less than a minute'
      : minutes < 60
        ? `${minutes} min`
        : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
  return ms >= 0 ? `in ${text}` : `${text} ago`;
}

/** The fire time as the routine's own timezone shows it. */
function inZone(iso: string, timeZone: string | undefined): string {
  try {
    return new Date(iso).toLocaleString(undefined, { timeZone, timeZoneName: 'short' });
  } catch {
    return new Date(iso).toLocaleString();
  }
}

/** Routines (pause, resume, fire now), jobs (cancel) and hands. */
export function AutomationPage() {
  const routines = useCall<{ routines: Routine[] }>('routines.list', {}, 10_000);
  const jobs = useCall<{ jobs: Job[] }>('jobs.list', { limit: 100 }, 5_000);
  const hands = useCall<HandsListReply>('hands.list', {});
  return (
    <section aria-labelledby="automation-title">
      <h1 id="automation-title">Routines</h1>
      <ErrorBanner error={routines.error} />
      <table>
        <thead>
          <tr>
            <th>name</th>
            <th>trigger</th>
            <th>state</th>
            <th>next fire</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {routines.data?.routines.map((routine) => {
            const trigger = routine.trigger as { kind: string; timezone?: string; expression?: string };
            return (
              <tr key={routine.id}>
                <td>{routine.name}</td>
                <td>
                  {trigger.kind} {trigger.expression ?? ''} {trigger.timezone ?? ''}
                </td>
                <td>
                  {routine.state}
                  {routine.disabledReason ? `: ${routine.disabledReason}` : ''}
                </td>
                <td>
                  {routine.nextFireAt
                    ? `${inWords(routine.nextFireAt)} (${inZone(routine.nextFireAt, trigger.timezone)})`
                    : '—'}
                </td>
                <td>
                  {routine.state === 'paused' ? (
                    <ActionButton
                      method="routines.resume"
                      payload={{ id: routine.id }}
                      onDone={routines.reload}
                    >
                      Resume
                    </ActionButton>
                  ) : (
                    <ActionButton
                      method="routines.pause"
                      payload={{ id: routine.id }}
                      onDone={routines.reload}
                    >
                      Pause
                    </ActionButton>
                  )}
                  <ActionButton
                    method="routines.fire"
                    payload={{ id: routine.id }}
                    onDone={() => (routines.reload(), jobs.reload())}
                  >
                    Fire now
                  </ActionButton>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h1>Jobs</h1>
      <ErrorBanner error={jobs.error} />
      <table>
        <thead>
          <tr>
            <th>job</th>
            <th>kind</th>
            <th>state</th>
            <th>created</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {jobs.data?.jobs.map((job) => (
            <tr key={job.id}>
              <td>
                <code>{job.id.slice(0, 8)}</code>
              </td>
              <td>{job.kind}</td>
              <td>
                <span className={`pill ${job.state}`}>{job.state}</span>
                {job.error && (
                  <span>
                    {' '}
                    <code>{job.error.code}</code> {job.error.message}
                  </span>
                )}
              </td>
              <td>{new Date(job.createdAt).toLocaleString()}</td>
              <td>
                {(job.state === 'pending' ||
                  job.state === 'running' ||
                  job.state === 'waiting_approval' ||
                  job.state === 'stuck') && (
                  <ActionButton method="jobs.cancel" payload={{ id: job.id }} onDone={jobs.reload}>
                    Cancel
                  </ActionButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h1>Hands</h1>
      <ErrorBanner error={hands.error} />
      <table>
        <tbody>
          {hands.data?.hands.map((hand) => (
            <tr key={hand.id}>
              <td>{hand.name}</td>
              <td>{hand.description}</td>
              <td>{hand.gating.eligible ? 'ready' : `not ready: ${hand.gating.reasons.join('; ')}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
