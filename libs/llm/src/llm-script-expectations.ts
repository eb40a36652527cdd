import type { LlmScriptExpectation } from './llm-script.js';
import type { LlmRequest } from './llm-types.js';

/** Checks a request against a step's expectations; returns one sentence per failed check. */
export function checkLlmScriptExpectation(
  expectation: LlmScriptExpectation | undefined,
  request: LlmRequest,
): string[] {
  if (expectation === undefined) return [];
  const failures: string[] = [];
  if (expectation.lastUserMessageContains !== undefined) {
    const last = request.messages.findLast((message) => message.role === 'user');
    if (last === undefined)
      failures.push(
        `expected a user message containing "${expectation.lastUserMessageContains}", but there is none`,
      );
    else if (!last.content.includes(expectation.lastUserMessageContains)) {
      failures.push(
        `expected the last user message to contain "${expectation.lastUserMessageContains}", got "${abbreviate(last.content)}"`,
      );
    }
  }
  if (expectation.systemContains !== undefined) {
    const system = request.messages
      .flatMap((message) => (message.role === 'system' ? [message.content] : []))
      .join('\n\n');
    if (!system.includes(expectation.systemContains)) {
      failures.push(
        `expected the system prompt to contain "${expectation.systemContains}", got "${abbreviate(system)}"`,
      );
    }
  }
  for (const { callId, contains } of expectation.toolResults ?? []) {
    const result = request.messages.find(
      (message) => message.role === 'tool' && message.toolCallId === callId,
    );
    if (result === undefined)
      failures.push(`expected a tool result for call id ${callId}, but there is none`);
    else if (result.role === 'tool' && !result.content.includes(contains)) {
      failures.push(
        `expected the tool result for ${callId} to contain "${contains}", got "${abbreviate(result.content)}"`,
      );
    }
  }
  const offered = new Set((request.tools ?? []).map((tool) => tool.name));
  const missing = (expectation.toolsInclude ?? []).filter((name) => !offered.has(name));
  if (missing.length > 0)
    failures.push(
      `expected tools ${missing.join(', ')} to be offered; offered: ${[...offered].join(', ') || 'none'}`,
    );
  const present = (expectation.toolsExclude ?? []).filter((name) => offered.has(name));
  if (present.length > 0)
    failures.push(`expected tools ${present.join(', ')} not to be offered, but they are`);
  return failures;
}

function abbreviate(text: string, limit = 120): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…`;
}
