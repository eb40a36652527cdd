import type { Tool } from '@talon/tool-runtime';
import type { SkillServiceClient } from './skill-service-client.js';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';

/** `skill_remove`: deletes an installed skill (workspace and user skills are never touched). Always asks first. */
export function createSkillRemoveTool(skills: SkillServiceClient): Tool<{ name: string }> {
  return {
    definition: controlPlaneToolDefinition({
      name: 'skill_remove',
      description:
        'Removes an INSTALLED skill by name; answers removed: false when no installed skill has that name.',
      parameters: {
        properties: {
          name: {
            type: 'string',
            minLength: 1,
            maxLength: 64,
            description: 'the skill name, e.g. "code-review"',
          },
        },
        required: ['name'],
      },
      effects: ['modify_extension'],
      approval: 'always',
      timeoutMs: 6_000,
    }),
    async execute({ name }, context) {
      return skills.remove(name, { signal: context.signal, callId: context.callId });
    },
  };
}
