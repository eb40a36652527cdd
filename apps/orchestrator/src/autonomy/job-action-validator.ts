import { ERROR_CODES, type JobAction, type JobPolicy } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { fillSkillParameters } from '@talon/skills';
import type { ToolCatalog } from '@talon/tool-runtime';
import type { HandCatalog } from '../hands/hand-catalog.js';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import type { JobActionHandlers } from './job-action-handlers.js';

/**
 * Refuses a job or routine action that could never run: an unknown tool (in the live catalog), an
 * unknown skill or hand, skill params that do not fit the skill's declaration, a kind with no runtime here, a tool outside
 * the policy's own allowlist.
 */
export class JobActionValidator {
  constructor(
    private readonly catalog: ToolCatalog,
    private readonly skills: SkillServiceClient,
    private readonly handlers: JobActionHandlers,
    private readonly hands: HandCatalog,
  ) {}

  async validate(action: JobAction, policy: JobPolicy = {}): Promise<void> {
    if (!this.handlers.has(action.kind))
      throw new TalonError(
        ERROR_CODES.UNAVAILABLE,
        `No runtime for "${action.kind}" actions in this orchestrator; use a prompt, tool, skill or reminder action.`,
        { details: { kind: action.kind } },
      );
    if (action.kind === 'tool') {
      if (!this.catalog.get(action.tool))
        throw new TalonError(
          ERROR_CODES.UNKNOWN_TOOL,
          `No tool named "${action.tool}" in the catalog; see tools.list.`,
          {
            details: { tool: action.tool },
          },
        );
      if (policy.tools && !policy.tools.includes(action.tool))
        throw new TalonError(
          ERROR_CODES.POLICY_DENIED,
          `The action calls "${action.tool}", which policy.tools does not allow; add it or drop the allowlist.`,
        );
    }
    if (action.kind === 'hand') {
      // NOT_FOUND with the refusal of its file, if the hand's HAND.toml was refused.
      const hand = await this.hands.require(action.hand);
      if (hand.system)
        throw new TalonError(
          ERROR_CODES.POLICY_DENIED,
          `"${hand.id}" is a system hand; use a reminder action for reminders.`,
          { details: { hand: hand.id } },
        );
    }
    if (action.kind === 'skill') {
      const listing = await this.skills.list({});
      const skill = listing.skills.find((entry) => entry.name === action.skill);
      if (!skill)
        throw new TalonError(ERROR_CODES.NOT_FOUND, `No skill named "${action.skill}"; see skills.list.`, {
          details: { skill: action.skill },
        });
      // The action's own params are checked now (undeclared or mistyped ones refused); required ones
      // may still come from a trigger's payload, so they are checked when the job runs.
      if (action.params) fillSkillParameters(skill, { source: 'api', values: action.params });
    }
  }
}
