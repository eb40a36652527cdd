import type { ChatEvent } from '@talon/contracts';

const DIM = '\x1b[2m';
const RESET = '\x1b[0m';
const RED = '\x1b[31m';
const GREEN = '\x1b[32m';
const CYAN = '\x1b[36m';

function brief(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Turns chat events into terminal text; returns undefined for events that print nothing. */
export function renderChatEvent(event: ChatEvent): string | undefined {
  switch (event.type) {
    case 'text_delta':
      return String(event.text ?? '');
    case 'tool_call_started':
      return `\n${CYAN}⚙ ${event.tool}${RESET} ${DIM}${brief(event.params ?? {})}${RESET}\n`;
    case 'tool_call_finished':
      return event.ok
        ? `${GREEN}✓ ${event.tool}${RESET} ${DIM}${Math.round(Number(event.durationMs ?? 0))} ms${RESET}\n`
        : `${RED}✗ ${event.tool}${RESET} ${DIM}${event.code ?? ''} ${brief(event.message ?? (event.policy as { reason?: string } | undefined)?.reason ?? '')}${RESET}\n`;
    case 'approval_resolved':
      return `${DIM}approval ${event.approved ? 'granted' : 'refused'} (${event.decision})${RESET}\n`;
    case 'skills_selected': {
      const skills = (event.skills as Array<{ name: string; trust: string }> | undefined) ?? [];
      return skills.length
        ? `${DIM}skills: ${skills.map((skill) => `${skill.name} (${skill.trust.toLowerCase()})`).join(', ')}${RESET}\n`
        : undefined;
    }
    case 'error':
      return `${RED}error: ${brief((event.error as { message?: string } | undefined)?.message ?? event.message ?? event, 400)}${RESET}\n`;
    case 'schedule_intercepted':
      return `${String(event.content ?? '')}\n${DIM}(scheduled without a model call)${RESET}\n`;
    case 'reminder':
      return `\n${CYAN}⏰ ${String(event.text ?? '')}${RESET}\n`;
    case 'command_result':
      return `${JSON.stringify(event.result, null, 2)}\n`;
    default:
      return undefined;
  }
}
