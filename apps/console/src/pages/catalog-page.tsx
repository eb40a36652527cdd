import { useMemo, useState } from 'react';
import type { CatalogTool, ToolsCallReply, ToolsListReply } from '@talon/contracts';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { useCall } from '../api/use-call.js';
import { ErrorBanner } from '../components/error-banner.js';
import { JsonView } from '../components/json-view.js';
import { SchemaForm } from '../components/schema-form.js';

/** The live catalog by source and domain; a tool's schema as a form, and "try it" through `tools.call`. */
export function CatalogPage() {
  const tools = useCall<ToolsListReply>('tools.list', {}, 15_000);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<string>();
  const groups = useMemo(() => {
    const bySource = new Map<string, CatalogTool[]>();
    for (const tool of tools.data?.tools ?? []) {
      const text = `${tool.definition.name} ${tool.definition.description}`.toLowerCase();
      if (filter && !text.includes(filter.toLowerCase())) continue;
      const key = `${tool.definition.source} · ${tool.definition.domain}`;
      bySource.set(key, [...(bySource.get(key) ?? []), tool]);
    }
    return [...bySource.entries()].sort(([a], [b]) => a.localeCompare(b));
  }, [tools.data, filter]);
  const tool = tools.data?.tools.find((entry) => entry.definition.name === selected);
  return (
    <section aria-labelledby="catalog-title">
      <h1 id="catalog-title">Catalog</h1>
      <ErrorBanner error={tools.error} />
      <label htmlFor="tool-filter">Filter</label>{' '}
      <input
        id="tool-filter"
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
        placeholder="name or description"
      />
      <div className="split">
        <div className="list">
          {groups.map(([group, entries]) => (
            <div key={group}>
              <h2>{group}</h2>
              <ul>
                {entries.map((entry) => (
                  <li key={entry.definition.name}>
                    <button
                      type="button"
                      className="link"
                      aria-pressed={selected === entry.definition.name}
                      onClick={() => setSelected(entry.definition.name)}
                    >
                      {entry.definition.name}
                    </button>{' '}
                    <span className="muted">{entry.definition.approval}</span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        {tool && <ToolDetail key={tool.definition.name} tool={tool} />}
      </div>
    </section>
  );
}

function ToolDetail({ tool }: { tool: CatalogTool }) {
  const [result, setResult] = useState<ToolsCallReply>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const run = async (params: Record<string, unknown>) => {
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      setResult(await call<ToolsCallReply>('tools.call', { tool: tool.definition.name, params }));
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    } finally {
      setBusy(false);
    }
  };
  const definition = tool.definition;
  return (
    <article className="detail" data-testid="tool-detail">
      <h2>{definition.displayName ?? definition.name}</h2>
      <p>{definition.description}</p>
      <p className="muted">
        effects: {definition.effects.join(', ') || 'none'} · approval: {definition.approval} · timeout{' '}
        {definition.timeoutMs} ms · {tool.location} on {tool.instances.length} instance(s)
      </p>
      <h3>Try it</h3>
      <SchemaForm
        schema={definition.parameters}
        submitLabel={busy ? 'Running…' : 'Run'}
        onSubmit={(params) => void run(params)}
      />
      <ErrorBanner error={error} />
      {result && (
        <div data-testid="tool-result">
          <p>
            <span className="pill ok">ok</span> {result.durationMs.toFixed(0)} ms
            {result.truncated ? ' · truncated' : ''}
            {result.redactions.length > 0 ? ` · redacted: ${result.redactions.join(', ')}` : ''}
          </p>
          <pre className="output">{result.text}</pre>
          {result.media?.map((media, index) =>
            media.type === 'image' ? (
              <img
                key={index}
                alt={`output ${index + 1}`}
                src={`data:${media.mimeType};base64,${media.data}`}
              />
            ) : null,
          )}
          <JsonView label="output (JSON)" value={result.output} />
        </div>
      )}
      <JsonView label="schema" value={definition.parameters} />
    </article>
  );
}
