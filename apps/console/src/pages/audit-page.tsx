import { useState } from 'react';
import type { AuditListReply, AuditRecordView } from '@talon/contracts';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { ErrorBanner } from '../components/error-banner.js';
import { JsonView } from '../components/json-view.js';
import { useCall } from '../api/use-call.js';

interface Verification {
  ok: boolean;
  checked: number;
  headHash: string;
  firstBreak?: unknown;
}

/** The audit log, newest first, paged and filtered, and `audit.verify` of the whole chain. */
export function AuditPage() {
  const [filters, setFilters] = useState({ kind: '', tool: '', outcome: '' });
  const [before, setBefore] = useState<string[]>([]);
  const query = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
  const page = useCall<AuditListReply>('audit.list', {
    ...query,
    limit: 50,
    ...(before.length ? { before: before.at(-1) } : {}),
  });
  const [verification, setVerification] = useState<Verification>();
  const [error, setError] = useState<ApiError>();
  const verify = async () => {
    setError(undefined);
    try {
      setVerification(await call<Verification>('audit.verify'));
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    }
  };
  const field = (name: keyof typeof filters) => (
    <label>
      {name}{' '}
      <input
        name={name}
        value={filters[name]}
        onChange={(event) => {
          setBefore([]);
          setFilters({ ...filters, [name]: event.target.value });
        }}
      />
    </label>
  );
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">Audit</h1>
      <p>
        <button type="button" onClick={() => void verify()}>
          Verify the chain
        </button>{' '}
        {verification && (
          <span data-testid="audit-verify" className={verification.ok ? 'pill ok' : 'pill failed'}>
            {verification.ok
              ? `intact: ${verification.checked} records, head ${verification.headHash.slice(0, 12)}`
              : `broken: ${JSON.stringify(verification.firstBreak)}`}
          </span>
        )}
      </p>
      <ErrorBanner error={error ?? page.error} />
      <div className="filters">
        {field('kind')} {field('tool')} {field('outcome')}
      </div>
      <table data-testid="audit-records">
        <thead>
          <tr>
            <th>id</th>
            <th>time</th>
            <th>kind</th>
            <th>actor</th>
            <th>tool</th>
            <th>outcome</th>
            <th>details</th>
          </tr>
        </thead>
        <tbody>
          {page.data?.records.map((record: AuditRecordView) => (
            <tr key={record.id}>
              <td>{record.id}</td>
              <td>{new Date(record.at).toLocaleString()}</td>
              <td>{record.kind}</td>
              <td>{record.actor}</td>
              <td>{record.tool ?? '—'}</td>
              <td>{record.outcome}</td>
              <td>
                <JsonView label="data" value={record.data} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" disabled={before.length === 0} onClick={() => setBefore(before.slice(0, -1))}>
          Newer
        </button>{' '}
        <button
          type="button"
          disabled={!page.data?.nextBefore}
          onClick={() => setBefore([...before, page.data!.nextBefore!])}
        >
          Older
        </button>
      </p>
    </section>
  );
}
