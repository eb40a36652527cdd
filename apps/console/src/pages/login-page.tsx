import { useState, type FormEvent } from 'react';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { saveToken } from '../api/token-store.js';
import { ErrorBanner } from '../components/error-banner.js';

/** Asks for a token and checks it with `system.status` (read scope) before keeping it. */
export function LoginPage({ reason, onLogin }: { reason?: string; onLogin(token: string): void }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await call('system.status', {}, token.trim());
      saveToken(token.trim());
      onLogin(token.trim());
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="login">
      <form onSubmit={(event) => void submit(event)} aria-label="Log in">
        <h1>Talon console</h1>
        {reason && (
          <p className="notice" data-testid="logout-reason">
            {reason}
          </p>
        )}
        <label htmlFor="token">API token</label>
        <input
          id="token"
          name="token"
          type="password"
          autoComplete="off"
          autoFocus
          value={token}
          onChange={(event) => setToken(event.target.value)}
          placeholder="talon_…"
        />
        <p className="muted">
          <code>pnpm talon up</code> prints where the operator token is; <code>pnpm talon token create</code>{' '}
          makes others. The token is kept in this tab only (sessionStorage).
        </p>
        <ErrorBanner error={error} />
        <button type="submit" disabled={busy || token.trim() === ''}>
          Log in
        </button>
      </form>
    </main>
  );
}
