import { useId, useState } from 'react';

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  description?: string;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
};

/** Reads one field's text as its schema's type; anything not a plain scalar is JSON. */
function parseField(schema: Schema, text: string): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'string') return text;
  if (type === 'number' || type === 'integer') return Number(text);
  if (type === 'boolean') return text === 'true';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A form from a tool's JSON Schema: one input per top-level property (select for enums, checkbox-like
 * select for booleans, JSON text for objects and arrays). The server validates again; this only helps.
 */
export function SchemaForm({
  schema,
  onSubmit,
  submitLabel,
}: {
  schema: Schema;
  onSubmit(params: Record<string, unknown>): void;
  submitLabel: string;
}) {
  const id = useId();
  const properties = Object.entries(schema.properties ?? {});
  const [values, setValues] = useState<Record<string, string>>({});
  const submit = () => {
    const params: Record<string, unknown> = {};
    for (const [name, property] of properties) {
      const text = values[name];
      if (text === undefined || text === '') continue;
      params[name] = parseField(property, text);
    }
    onSubmit(params);
  };
  return (
    <form
      className="schema-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {properties.length === 0 && <p className="muted">This tool takes no parameters.</p>}
      {properties.map(([name, property]) => {
        const type = Array.isArray(property.type) ? property.type[0] : property.type;
        const fieldId = `${id}-${name}`;
        const required = schema.required?.includes(name);
        const onChange = (text: string) => setValues((previous) => ({ ...previous, [name]: text }));
        return (
          <div key={name} className="field">
            <label htmlFor={fieldId}>
              {name}
              {required ? ' *' : ''} <span className="muted">{type ?? 'any'}</span>
            </label>
            {property.enum ? (
              <select
                id={fieldId}
                name={name}
                value={values[name] ?? ''}
                onChange={(event) => onChange(event.target.value)}
              >
                <option value="">—</option>
                {property.enum.map((option) => (
                  <option key={String(option)} value={String(option)}>
                    {String(option)}
                  </option>
                ))}
              </select>
            ) : type === 'boolean' ? (
              <select
                id={fieldId}
                name={name}
                value={values[name] ?? ''}
                onChange={(event) => onChange(event.target.value)}
              >
                <option value="">—</option>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : type === 'object' || type === 'array' || type === undefined ? (
              <textarea
                id={fieldId}
                name={name}
                rows={3}
                placeholder="JSON"
                value={values[name] ?? ''}
                onChange={(event) => onChange(event.target.value)}
              />
            ) : (
              <input
                id={fieldId}
                name={name}
                type={type === 'number' || type === 'integer' ? 'number' : 'text'}
                placeholder={property.default === undefined ? '' : String(property.default)}
                value={values[name] ?? ''}
                onChange={(event) => onChange(event.target.value)}
              />
            )}
            {property.description && <p className="muted">{property.description}</p>}
          </div>
        );
      })}
      <button type="submit">{submitLabel}</button>
    </form>
  );
}
