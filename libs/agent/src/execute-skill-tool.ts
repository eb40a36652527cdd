import type { ToolDefinition } from '@talon/contracts';

/** The protected name of the tool that runs a skill as a sub-task. */
export const EXECUTE_SKILL_TOOL = 'execute_skill';

/** Arguments of `execute_skill`. */
export interface ExecuteSkillArguments {
  skill: string;
  parameters?: Record<string, unknown>;
  task?: string;
}

/**
 * `execute_skill` as the model sees it. The agent loop runs it itself (a nested turn, see
 * {@link TurnRunner}); registered as a built-in, its name is protected from dynamic tools.
 */
export function executeSkillToolDefinition(): ToolDefinition {
  return {
    name: EXECUTE_SKILL_TOOL,
    description:
      'Runs a skill as a sub-task: its instructions (rendered with the parameters) drive a nested run limited to the tools the skill declares, and its final answer comes back as this result. Use skill_list to see skills and their parameters.',
    parameters: {
      type: 'object',
      properties: {
        skill: { type: 'string', pattern: '^[a-z0-9][a-z0-9-]{0,63}$', description: 'the skill name' },
        parameters: { type: 'object', description: "values for the skill's declared parameters" },
        task: { type: 'string', maxLength: 8000, description: 'what to do with the skill (default: run it)' },
      },
      required: ['skill'],
      additionalProperties: false,
    },
    effects: [],
    approval: 'never',
    timeoutMs: 300_000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: false,
  };
}
