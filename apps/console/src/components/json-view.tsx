import { useMemo } from 'react';

/** Past this many characters the view shows the start and offers the whole value as a download. */
const VIEW_LIMIT = 64 * 1024;

function pretty(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A collapsible, pretty-printed value; always text (never HTML), truncated with a download when large. */
export function JsonView({
  value,
  label = 'output',
  open = false,
}: {
  value: unknown;
  label?: string;
  open?: boolean;
}) {
  const text = useMemo(() => pretty(value), [value]);
  const truncated = text.length > VIEW_LIMIT;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'application/octet-stream' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${label}.txt`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };
  return (
    <details className="json" open={open}>
      <summary>
        {label} <span className="muted">({text.length.toLocaleString()} characters)</span>
      </summary>
      <pre>{truncated ? text.slice(0, VIEW_LIMIT) : text}</pre>
      {truncated && (
        <button type="button" onClick={download}>
          Truncated at {VIEW_LIMIT.toLocaleString()} characters: download all
        </button>
      )}
    </details>
  );
}
