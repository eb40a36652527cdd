import { useCall } from '../api/use-call.js';
import { ErrorBanner } from '../components/error-banner.js';
import { JsonView } from '../components/json-view.js';
import { ApprovalButtons } from '../components/approval-buttons.js';

interface PendingApproval {
  id: string;
  sessionId: string;
  callId: string;
  tool: string;
  params: Record<string, unknown>;
  reason: string;
  createdAt: number;
  expiresAt: number;
}

/** Every pending approval the token may see, across sessions and jobs, refreshed every two seconds. */
export function ApprovalsPage() {
  const approvals = useCall<{ approvals: PendingApproval[] }>('approvals.list', {}, 2_000);
  const list = approvals.data?.approvals ?? [];
  return (
    <section aria-labelledby="approvals-title">
      <h1 id="approvals-title">Approvals</h1>
      <ErrorBanner error={approvals.error} />
      {approvals.data && list.length === 0 && <p className="muted">Nothing is waiting for a decision.</p>}
      <ul className="approvals" data-testid="approvals">
        {list.map((approval) => (
          <li key={approval.id} className="approval" data-tool={approval.tool}>
            <div>
              <strong>{approval.tool}</strong> in{' '}
              <a href={`#/sessions/${approval.sessionId}`}>session {approval.sessionId.slice(0, 8)}</a>
              <span className="muted"> · expires {new Date(approval.expiresAt).toLocaleTimeString()}</span>
            </div>
            <p>{approval.reason}</p>
            <JsonView label="params" value={approval.params} open />
            <ApprovalButtons id={approval.id} onResolved={approvals.reload} />
          </li>
        ))}
      </ul>
    </section>
  );
}
