import type { Hand } from '@talon/contracts';

/**
 * `_reminder`: delivers a reminder to the session that set it. It calls no model and no tool — the
 * scheduler hands it the reminder text and the session; the delivery (an event on the session's stream and
 * a stored notification) is the orchestrator's. Registered in code; no file may claim a `_` id.
 */
export const REMINDER_HAND: Hand = {
  id: '_reminder',
  name: 'Reminder',
  version: '1.0.0',
  description:
    'Delivers a reminder to the session that set it, at the time it was set for, without calling a model.',
  dialect: 'system',
  system: true,
  category: 'system',
  icon: '⏰',
  tags: ['reminder', 'system'],
  tools: [],
  effects: [],
  skills: [],
  mcpServers: [],
  requiresApproval: false,
  timeoutMs: 10_000,
  requires: [],
  settings: [],
  agent: { systemPrompt: 'Deliver the reminder text to the session that set it. No model is called.' },
  triggers: { manual: false, webhook: false, events: [] },
  workflow: [],
  metrics: [],
  warnings: [],
};

/** Hands registered in code, listed before the hands found in files. */
export const SYSTEM_HANDS: readonly Hand[] = [REMINDER_HAND];
