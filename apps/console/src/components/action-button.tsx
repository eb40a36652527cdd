import { useState, type ReactNode } from 'react';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { ErrorBanner } from './error-banner.js';

/** A button that runs one API call and then `onDone`; a refusal shows as the envelope's code and message. */
export function ActionButton({
  method,
  payload,
  onDone,
  children,
}: {
  method: string;
  payload: unknown;
  onDone?(result: unknown): void;
  children: ReactNode;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async () => {
    setBusy(true);
    setError(undefined);
    try {
      onDone?.(await call(method, payload));
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" disabled={busy} onClick={() => void run()}>
        {children}
      </button>
      <ErrorBanner error={error} />
    </>
  );
}
