import { setTimeout as delay } from 'node:timers/promises';
import type { ToolDefinition } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';

/** Longest wait `echo` accepts in `delayMs`. */
export const ECHO_MAX_DELAY_MS = 10_000;
/** Longest message `echo` accepts, in characters. */
export const ECHO_MAX_MESSAGE_LENGTH = 64 * 1024;

/** Params of `echo`. */
export type EchoParams = {
  message: string;
  delayMs?: number;
};

const definition: ToolDefinition = {
  name: 'echo',
  description:
    'Returns the message unchanged. Optionally waits delayMs milliseconds first (useful to test timeouts and load).',
  parameters: {
    type: 'object',
    properties: {
      message: { type: 'string', maxLength: ECHO_MAX_MESSAGE_LENGTH, description: 'The text to return.' },
      delayMs: {
        type: 'integer',
        minimum: 0,
        maximum: ECHO_MAX_DELAY_MS,
        default: 0,
        description: 'Milliseconds to wait before answering.',
      },
    },
    required: ['message'],
    additionalProperties: false,
  },
  effects: [],
  approval: 'never',
  timeoutMs: ECHO_MAX_DELAY_MS + 5_000,
  domain: 'orchestrator',
  source: 'builtin',
  sensitiveParams: [],
  idempotent: true,
};

/** The `echo` tool: returns its message, after an optional wait that ends early when the call is aborted. */
export function createEchoTool(): Tool<EchoParams, string> {
  return {
    definition,
    async execute(params, context) {
      if (params.delayMs) await delay(params.delayMs, undefined, { signal: context.signal });
      return params.message;
    },
  };
}
