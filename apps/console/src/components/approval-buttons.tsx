import { useState } from 'react';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { ErrorBanner } from './error-banner.js';

/** Approve, deny, or approve the tool for the rest of the session. */
export function ApprovalButtons({ id, onResolved }: { id: string; onResolved(): void }) {
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const resolve = async (decision: 'approve' | 'deny' | 'approve_always') => {
    setBusy(true);
    try {
      await call('approvals.resolve', { id, decision, resolvedBy: 'console' });
      onResolved();
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="buttons">
      <button type="button" disabled={busy} onClick={() => void resolve('approve')}>
        Approve
      </button>
      <button type="button" disabled={busy} onClick={() => void resolve('deny')}>
        Deny
      </button>
      <button type="button" disabled={busy} onClick={() => void resolve('approve_always')}>
        Always for this session
      </button>
      <ErrorBanner error={error} />
    </span>
  );
}
