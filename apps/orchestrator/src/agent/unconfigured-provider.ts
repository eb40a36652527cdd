import type { LlmProvider, LlmStreamEvent } from '@talon/llm';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** How to configure a model, shown whenever a turn needs one and none is set. */
export const CONFIGURE_MODEL_HINT =
  'No model is configured. Set TALON_LLM_PROVIDER=openai|anthropic|scripted with TALON_LLM_MODEL (and TALON_LLM_BASE_URL / TALON_LLM_API_KEY), ' +
  'or use slash commands: /tools, /call <tool> <json>, /skills, /skill <name> <message>, /help.';

/**
 * Stands in for the model when none is configured: slash commands still work (they never reach a
 * provider), and a plain message ends its turn with an error that says how to configure one.
 */
export class UnconfiguredProvider implements LlmProvider {
  readonly name = 'none';
  readonly model = 'none';

  // eslint-disable-next-line require-yield
  async *stream(): AsyncIterable<LlmStreamEvent> {
    throw new TalonError(ERROR_CODES.UNAVAILABLE, CONFIGURE_MODEL_HINT);
  }
}
