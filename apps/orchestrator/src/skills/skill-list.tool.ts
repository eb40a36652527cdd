import type { SkillTrust } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { SkillServiceClient } from './skill-service-client.js';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';

interface SkillListParams {
  trust?: SkillTrust;
  includeGatedOut?: boolean;
}

/** `skill_list`: the discovered skills in a compact form for the model (no paths, no bodies). */
export function createSkillListTool(skills: SkillServiceClient): Tool<SkillListParams> {
  return {
    definition: controlPlaneToolDefinition({
      name: 'skill_list',
      description:
        'Lists the available skills: name, version, description, trust (TRUSTED or INSTALLED), whether each can be used here, its /commands, and the parameters and tools execute_skill needs.',
      parameters: {
        properties: {
          trust: {
            type: 'string',
            enum: ['TRUSTED', 'INSTALLED'],
            description: 'only skills of this trust level',
          },
          includeGatedOut: {
            type: 'boolean',
            description: 'also list skills whose requirements are missing (default true)',
          },
        },
      },
      effects: [],
      approval: 'never',
      timeoutMs: 6_000,
    }),
    async execute(params, context) {
      const result = await skills.list(params, { signal: context.signal, callId: context.callId });
      return {
        skills: result.skills.map((skill) => ({
          name: skill.name,
          version: skill.version,
          description: skill.description,
          trust: skill.trust,
          source: skill.source,
          eligible: skill.gating.eligible,
          ...(skill.gating.eligible ? {} : { unavailableBecause: skill.gating.reasons }),
          commands: skill.triggers.flatMap((trigger) =>
            trigger.kind === 'command' ? [trigger.command] : [],
          ),
          // What execute_skill takes and needs.
          ...(skill.parameters.length > 0
            ? {
                parameters: skill.parameters.map((parameter) => ({
                  name: parameter.name,
                  type: parameter.type,
                  required: parameter.required && parameter.default === undefined,
                  ...(parameter.description ? { description: parameter.description } : {}),
                  ...(parameter.enum ? { enum: parameter.enum } : {}),
                })),
              }
            : {}),
          ...(skill.tools && skill.tools.length > 0 ? { tools: skill.tools.map((tool) => tool.name) } : {}),
        })),
        refusedFiles: result.rejected.length,
      };
    },
  };
}
