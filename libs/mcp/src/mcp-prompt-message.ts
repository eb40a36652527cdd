import type { McpPrompt, McpPromptGetReply } from '@talon/contracts';
import { renderMcpOutputForModel } from './mcp-model-content.js';

/** What a `/prompt` command's `key=value` pairs lack or carry too many of, against the prompt's arguments. */
export interface PromptArgumentCheck {
  /** Required arguments with no value. */
  missing: McpPrompt['arguments'];
  /** Keys the prompt does not declare. */
  undeclared: string[];
}

/** Checks given arguments against a prompt's declared ones (MCP prompt arguments are all strings). */
export function checkPromptArguments(
  prompt: McpPrompt,
  given: Readonly<Record<string, string>>,
): PromptArgumentCheck {
  const declared = new Set(prompt.arguments.map((argument) => argument.name));
  return {
    missing: prompt.arguments.filter((argument) => argument.required && !given[argument.name]),
    undeclared: Object.keys(given).filter((key) => !declared.has(key)),
  };
}

/**
 * A rendered MCP prompt as the user message of a turn: the prompt is a template its server fills, so its
 * messages become what the person asks. Content renders as it does for tool results (text once, other
 * items as placeholder lines); an assistant message in the prompt is kept, labelled, as context.
 */
export function promptAsUserMessage(reply: McpPromptGetReply): string {
  const parts = reply.messages.map((message) => {
    const text = renderMcpOutputForModel({ content: [message.content], text: '', isError: false }).text;
    return message.role === 'assistant' ? `(assistant, from the prompt) ${text}` : text;
  });
  return parts.filter((part) => part.length > 0).join('\n\n');
}
