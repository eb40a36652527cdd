import { useEffect, useState } from 'react';
import { onUnauthenticated } from './api/talon-api.js';
import { forgetToken, readToken } from './api/token-store.js';
import { LoginPage } from './pages/login-page.js';
import { Shell } from './components/shell.js';

/** Logged in while sessionStorage holds a token the API accepts; any UNAUTHENTICATED reply logs out. */
export function App() {
  const [token, setToken] = useState<string | null>(readToken());
  const [reason, setReason] = useState<string | undefined>();
  useEffect(
    () =>
      onUnauthenticated((error) => {
        forgetToken();
        setReason(`${error.code}: ${error.message}`);
        setToken(null);
      }),
    [],
  );
  if (!token)
    return <LoginPage reason={reason} onLogin={(accepted) => (setReason(undefined), setToken(accepted))} />;
  return (
    <Shell
      onLogout={() => {
        forgetToken();
        setReason('You logged out.');
        setToken(null);
      }}
    />
  );
}
