import type { Tool } from '@talon/tool-runtime';
import type { SkillServiceClient } from './skill-service-client.js';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';

interface SkillSearchParams {
  query: string;
  limit?: number;
}

/** `skill_search`: skills ranked for a query, best first, with the reasons of each score. */
export function createSkillSearchTool(skills: SkillServiceClient): Tool<SkillSearchParams> {
  return {
    definition: controlPlaneToolDefinition({
      name: 'skill_search',
      description:
        'Searches the available skills by name, keywords, tags and description; returns the best matches with scores and reasons.',
      parameters: {
        properties: {
          query: {
            type: 'string',
            minLength: 1,
            maxLength: 1000,
            description: 'what the skill should help with',
          },
          limit: { type: 'integer', minimum: 1, maximum: 100, description: 'default 10' },
        },
        required: ['query'],
      },
      effects: [],
      approval: 'never',
      timeoutMs: 6_000,
    }),
    async execute(params, context) {
      const result = await skills.search(params, { signal: context.signal, callId: context.callId });
      return {
        hits: result.hits.map((hit) => ({
          name: hit.skill.name,
          description: hit.skill.description,
          trust: hit.skill.trust,
          eligible: hit.skill.gating.eligible,
          score: hit.score,
          reasons: hit.reasons,
        })),
      };
    },
  };
}
