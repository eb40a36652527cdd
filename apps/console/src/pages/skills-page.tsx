import { useState, type FormEvent } from 'react';
import type { SelectResult, SkillListResult } from '@talon/contracts';
import { call } from '../api/talon-api.js';
import { ApiError } from '../api/api-error.js';
import { useCall } from '../api/use-call.js';
import { ErrorBanner } from '../components/error-banner.js';

/** Discovered skills with trust and gating, and an explain box over `skills.select`. */
export function SkillsPage() {
  const skills = useCall<SkillListResult>('skills.list', {});
  const [message, setMessage] = useState('');
  const [selection, setSelection] = useState<SelectResult>();
  const [error, setError] = useState<ApiError>();
  const explain = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      setSelection(await call<SelectResult>('skills.select', { message }));
    } catch (failure) {
      setError(ApiError.isInstance(failure) ? failure : new ApiError('CONSOLE', String(failure), 0));
    }
  };
  const installedActive = selection?.active.filter((skill) => skill.trust === 'INSTALLED') ?? [];
  return (
    <section aria-labelledby="skills-title">
      <h1 id="skills-title">Skills</h1>
      <ErrorBanner error={skills.error} />
      <form className="explain" onSubmit={(event) => void explain(event)} aria-label="Explain">
        <label htmlFor="explain-message">Which skills would a message activate?</label>
        <input
          id="explain-message"
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          placeholder="Write the release notes…"
        />
        <button type="submit" disabled={message.trim() === ''}>
          Explain
        </button>
      </form>
      <ErrorBanner error={error} />
      {selection && (
        <div data-testid="explain-result">
          <h2>Would activate</h2>
          {selection.active.length === 0 && <p className="muted">No skill.</p>}
          <ul>
            {selection.active.map((skill) => (
              <li key={skill.name} data-skill={skill.name}>
                <strong>{skill.name}</strong> ({skill.trust}, {skill.tier}, score {skill.score.toFixed(2)}):{' '}
                {skill.reasons.join('; ')}
              </li>
            ))}
          </ul>
          {installedActive.length > 0 && (
            <p className="notice">
              {installedActive.map((skill) => skill.name).join(', ')}{' '}
              {installedActive.length > 1 ? 'are' : 'is'} Installed: the turn would keep only the read-only
              tools, and every other tool is removed (attenuation).
            </p>
          )}
          <h3>Considered ({selection.consideredTotal})</h3>
          <table>
            <tbody>
              {selection.considered.map((skill) => (
                <tr key={skill.name}>
                  <td>{skill.name}</td>
                  <td>{skill.outcome}</td>
                  <td>{skill.score.toFixed(2)}</td>
                  <td>{skill.reasons.join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Discovered</h2>
      <table data-testid="skills">
        <thead>
          <tr>
            <th>name</th>
            <th>trust</th>
            <th>source</th>
            <th>gating</th>
            <th>description</th>
          </tr>
        </thead>
        <tbody>
          {skills.data?.skills.map((skill) => (
            <tr key={skill.name}>
              <td>{skill.name}</td>
              <td>{skill.trust}</td>
              <td>{skill.source}</td>
              <td>{skill.gating.eligible ? 'eligible' : `gated out: ${skill.gating.reasons.join('; ')}`}</td>
              <td>{skill.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {skills.data && skills.data.rejected.length > 0 && (
        <>
          <h2>Rejected files</h2>
          <ul>
            {skills.data.rejected.map((rejection, index) => (
              <li key={index}>{JSON.stringify(rejection)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
