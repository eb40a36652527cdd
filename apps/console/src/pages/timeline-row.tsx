import type { TimelineItem } from './session-timeline.js';
import { JsonView } from '../components/json-view.js';
import { ApprovalButtons } from '../components/approval-buttons.js';

/** One timeline row; every string is rendered as text. */
export function TimelineRow({
  item,
  onResolved,
}: {
  item: TimelineItem;
  revision: number;
  onResolved(): void;
}) {
  switch (item.kind) {
    case 'user':
      return (
        <div className="bubble user" data-kind="user">
          <span className="who">you</span>
          <p>{item.text}</p>
        </div>
      );
    case 'assistant':
      return (
        <div className="bubble assistant" data-kind="assistant">
          <span className="who">assistant{item.streaming ? ' (writing…)' : ''}</span>
          <p>{item.text}</p>
        </div>
      );
    case 'skills':
      return (
        <div className="event skills" data-kind="skills">
          <strong>skills</strong> {item.skills.length === 0 && <span className="muted">none selected</span>}
          {item.skills.map((skill) => (
            <span key={skill.name} className="chip" title={skill.reasons.join('; ')}>
              {skill.name} ({skill.trust}, {skill.score.toFixed(2)})
            </span>
          ))}
          {item.removedTools.length > 0 && (
            <p className="muted">
              removed by attenuation:{' '}
              {item.removedTools.map((tool) => `${tool.name} (${tool.reason})`).join(', ')}
            </p>
          )}
        </div>
      );
    case 'tool':
      return (
        <div
          className={`event tool ${item.state}`}
          data-kind="tool"
          data-tool={item.tool}
          data-state={item.state}
        >
          <div>
            <strong>{item.tool}</strong> <span className={`pill ${item.state}`}>{item.state}</span>
            {item.durationMs !== undefined && <span className="muted"> {item.durationMs.toFixed(0)} ms</span>}
            {item.code && (
              <span>
                {' '}
                <code>{item.code}</code> {item.message}
              </span>
            )}
          </div>
          {item.policy && (
            <p className="muted">
              decision: {item.policy.action}
              {item.policy.source ? ` (${item.policy.source})` : ''}: {item.policy.reason}
            </p>
          )}
          {item.approval && (
            <div className="approval-line">
              approval: {item.approval.reason}
              {item.approval.decision ? (
                <span>
                  {' '}
                  → <strong>{item.approval.decision}</strong>
                  {item.approval.resolvedBy ? ` by ${item.approval.resolvedBy}` : ''}
                </span>
              ) : (
                <ApprovalButtons id={item.approval.id} onResolved={onResolved} />
              )}
            </div>
          )}
          {item.params !== undefined && <JsonView label="params" value={item.params} />}
          {item.output !== undefined && <JsonView label="output" value={item.output} />}
          {item.images?.map((image, index) => (
            <img
              key={index}
              alt={`${item.tool} output ${index + 1}`}
              src={`data:${image.mimeType};base64,${image.data}`}
            />
          ))}
        </div>
      );
    case 'note':
      return (
        <div className={`event note ${item.tone}`} data-kind="note">
          {item.text}
        </div>
      );
  }
}
