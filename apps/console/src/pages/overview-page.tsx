import { useEffect, useState } from 'react';
import type { Job, SystemStatus, ToolsListReply } from '@talon/contracts';
import { openEventStream } from '../api/session-event-stream.js';
import { useCall } from '../api/use-call.js';
import type { ApiError } from '../api/api-error.js';
import { ErrorBanner } from '../components/error-banner.js';

/** Services and instances live from the `system.status` stream, with the catalog, approvals and jobs. */
export function OverviewPage() {
  const [status, setStatus] = useState<SystemStatus>();
  const [streamError, setStreamError] = useState<ApiError>();
  const [dropped, setDropped] = useState<string>();
  useEffect(
    () =>
      openEventStream<SystemStatus>('/v1/system/status/stream?intervalMs=2000', {
        onEvent: (next) => (setStatus(next), setDropped(undefined)),
        onDrop: (reason, retryInMs) =>
          setDropped(`${reason}; reconnecting in ${Math.round(retryInMs / 1000)} s`),
        onFatal: setStreamError,
      }),
    [],
  );
  const tools = useCall<ToolsListReply>('tools.list', {}, 10_000);
  const approvals = useCall<{ approvals: unknown[] }>('approvals.list', {}, 5_000);
  const jobs = useCall<{ jobs: Job[] }>('jobs.list', { limit: 50 }, 10_000);
  const running = jobs.data?.jobs.filter((job) => job.state === 'running').length;
  const failed = jobs.data?.jobs.filter((job) => job.error).slice(0, 5) ?? [];
  return (
    <section aria-labelledby="overview-title">
      <h1 id="overview-title">Overview</h1>
      <ErrorBanner error={streamError ?? tools.error} />
      {dropped && <p className="notice">Status stream interrupted: {dropped}</p>}
      <div className="cards">
        <a className="card" href="#/catalog">
          <span className="big" data-testid="catalog-size">
            {tools.data?.tools.length ?? '…'}
          </span>{' '}
          tools in the catalog
        </a>
        <a className="card" href="#/approvals">
          <span className="big" data-testid="pending-approvals">
            {approvals.data?.approvals.length ?? '…'}
          </span>{' '}
          pending approvals
        </a>
        <a className="card" href="#/automation">
          <span className="big">{running ?? '…'}</span> running jobs
        </a>
      </div>
      <h2>Services</h2>
      {!status && <p className="muted">Waiting for the first status…</p>}
      {status && (
        <table data-testid="services">
          <thead>
            <tr>
              <th>service</th>
              <th>state</th>
              <th>instances</th>
              <th>latency</th>
            </tr>
          </thead>
          <tbody>
            {status.services.map((service) => (
              <tr key={service.service} data-service={service.service} data-state={service.state}>
                <td>{service.service}</td>
                <td>
                  <span className={`pill ${service.state}`}>{service.state}</span>
                </td>
                <td>{service.instances.map((instance) => instance.instanceId).join(', ') || '—'}</td>
                <td>
                  {service.instances.map((instance) => `${instance.latencyMs.toFixed(1)} ms`).join(', ') ||
                    '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {status && <p className="muted">Checked {new Date(status.checkedAt).toLocaleTimeString()}.</p>}
      {failed.length > 0 && (
        <>
          <h2>Recent errors</h2>
          <ul>
            {failed.map((job) => (
              <li key={job.id}>
                job {job.id.slice(0, 8)}: <code>{job.error!.code}</code> {job.error!.message}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
