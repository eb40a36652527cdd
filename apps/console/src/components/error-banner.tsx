import type { ApiError } from '../api/api-error.js';

/** The envelope's code and message, as the API wrote them (rendered as text). */
export function ErrorBanner({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <code>{error.code}</code> {error.message}
    </div>
  );
}
