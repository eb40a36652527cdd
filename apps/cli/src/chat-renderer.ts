import type { ChatEvent } from '@talon/contracts';
import { oneLine, renderCommandResult } from './command-result-view.js';
import type { TerminalStyle } from './terminal-style.js';

/** How {@link ChatRenderer} writes. */
export interface ChatRendererOptions {
  style: TerminalStyle;
  /** The terminal's width; tables are cut to it. Default: no limit (piped output). */
  width?: number;
}

/** "840 ms", "2.4 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Turns chat events into terminal text, one session's stream at a time: answers as they stream, each
 * tool call as one line once it ends (params, outcome, time), slash command answers as tables. Returns
 * undefined for events that print nothing.
 */
export class ChatRenderer {
  /** Params of the calls still running, for their one line when they end. */
  private readonly running = new Map<string, unknown>();
  private atLineStart = true;

  constructor(private readonly options: ChatRendererOptions) {}

  /** What a running call shows meanwhile (the spinner's label). */
  runningLabel(event: ChatEvent): string {
    return `${String(event.tool)} ${oneLine(event.params ?? {}, 60)}`;
  }

  /** A line break when the last output left the cursor mid-line (after a streamed answer), else ''. */
  endLine(): string {
    if (this.atLineStart) return '';
    this.atLineStart = true;
    return '\n';
  }

  render(event: ChatEvent): string | undefined {
    const text = this.text(event);
    if (text === undefined || text === '') return undefined;
    // Anything but streamed answer text starts on its own line.
    const out = event.type !== 'text_delta' && !this.atLineStart ? `\n${text}` : text;
    this.atLineStart = out.endsWith('\n');
    return out;
  }

  private text(event: ChatEvent): string | undefined {
    const { style } = this.options;
    switch (event.type) {
      case 'text_delta':
        return String(event.text ?? '');
      case 'tool_call_started':
        this.running.set(String(event.callId), event.params ?? {});
        return undefined;
      case 'tool_call_finished':
        return `${this.callLine(event)}\n`;
      case 'approval_resolved':
        return `${style.dim(`approval ${event.approved ? 'granted' : 'refused'} (${String(event.decision)})`)}\n`;
      case 'skills_selected': {
        const skills = (event.skills as Array<{ name: string; trust: string }> | undefined) ?? [];
        return skills.length
          ? `${style.dim(`skills: ${skills.map((skill) => `${skill.name} (${skill.trust.toLowerCase()})`).join(', ')}`)}\n`
          : undefined;
      }
      case 'turn_finished':
        return event.reason === 'aborted' ? `${style.yellow('turn cancelled')}\n` : undefined;
      case 'error':
        return `${style.red(`error: ${oneLine((event.error as { message?: string } | undefined)?.message ?? event.message ?? event, 400)}`)}\n`;
      case 'schedule_intercepted':
        return `${String(event.content ?? '')}\n${style.dim('(scheduled without a model call)')}\n`;
      case 'reminder':
        return `${style.cyan(`⏰ ${String(event.text ?? '')}`)}\n`;
      case 'command_result': {
        const text = renderCommandResult(String(event.command), event.result, this.options);
        return text === undefined || text === '' ? undefined : `${text}\n`;
      }
      default:
        return undefined;
    }
  }

  /** `✓ echo {"message":"hi"}  3 ms` or `✗ write_file {…}  POLICY_DENIED the reason  12 ms`. */
  private callLine(event: ChatEvent): string {
    const { style } = this.options;
    const callId = String(event.callId);
    const params = this.running.get(callId);
    this.running.delete(callId);
    const what = `${String(event.tool)}${params === undefined ? '' : ` ${style.dim(oneLine(params, 80))}`}`;
    const time = style.dim(formatDuration(Number(event.durationMs ?? 0)));
    if (event.ok) return `${style.green('✓')} ${what}  ${time}`;
    const reason = event.message ?? (event.policy as { reason?: string } | undefined)?.reason ?? '';
    return `${style.red('✗')} ${what}  ${style.red(oneLine(`${String(event.code ?? 'failed')} ${String(reason)}`.trim(), 160))}  ${time}`;
  }
}
