import { useEffect, useState } from 'react';

/** The route is the URL fragment (`#/sessions/<id>`): the server serves one page, and nothing secret is in it. */
export function useHashRoute(): string[] {
  const read = () =>
    window.location.hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [parts, setParts] = useState(read);
  useEffect(() => {
    const changed = () => setParts(read());
    window.addEventListener('hashchange', changed);
    return () => window.removeEventListener('hashchange', changed);
  }, []);
  return parts;
}
