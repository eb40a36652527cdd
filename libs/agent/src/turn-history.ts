import type { LlmToolCall } from '@talon/llm';
import type { StoredMessage } from './session-store.js';

/** Where an interrupted turn stands, read from the persisted messages. */
export interface InterruptedTurn {
  readonly turnId: string;
  /** The user message that opened the turn. */
  readonly userMessage: string;
  /** Model calls already made in the turn. */
  readonly iterations: number;
  /** Tool calls of the last assistant message that have no result yet, in call order. */
  readonly pendingCalls: readonly LlmToolCall[];
}

/**
 * Finds the unfinished turn at the end of a session's log: the last user message and what followed.
 * `undefined` when there is none or it ended with a final answer (an assistant message without calls).
 */
export function findInterruptedTurn(log: readonly StoredMessage[]): InterruptedTurn | undefined {
  let userIndex = -1;
  for (let index = log.length - 1; index >= 0; index--) {
    if (log[index]!.message.role === 'user') {
      userIndex = index;
      break;
    }
  }
  if (userIndex < 0) return undefined;
  const last = log[log.length - 1]!.message;
  if (last.role === 'assistant' && (last.toolCalls?.length ?? 0) === 0) return undefined;

  let iterations = 0;
  let lastAssistant = -1;
  for (let index = userIndex + 1; index < log.length; index++) {
    if (log[index]!.message.role === 'assistant') {
      iterations++;
      lastAssistant = index;
    }
  }
  const pendingCalls: LlmToolCall[] = [];
  if (lastAssistant >= 0) {
    const answered = new Set<string>();
    for (let index = lastAssistant + 1; index < log.length; index++) {
      const message = log[index]!.message;
      if (message.role === 'tool') answered.add(message.toolCallId);
    }
    const assistant = log[lastAssistant]!.message;
    for (const call of assistant.role === 'assistant' ? (assistant.toolCalls ?? []) : []) {
      if (!answered.has(call.id)) pendingCalls.push(call);
    }
  }
  const user = log[userIndex]!;
  return { turnId: user.turnId, userMessage: user.message.content, iterations, pendingCalls };
}
