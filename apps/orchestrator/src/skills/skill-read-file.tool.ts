import type { SkillReadFileResult } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { SkillServiceClient } from './skill-service-client.js';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';

interface SkillReadFileParams {
  name: string;
  path: string;
}

/**
 * `skill_read_file`: one text file (reference, script, template) of a skill's folder, as listed by
 * `skill_load`. Confined to the folder (a path out of it fails with PATH_OUTSIDE_SKILL), text only
 * (UNSUPPORTED_MEDIA_TYPE otherwise), cut at 64 KiB.
 */
export function createSkillReadFileTool(skills: SkillServiceClient): Tool<SkillReadFileParams, SkillReadFileResult> {
  return {
    definition: controlPlaneToolDefinition({
      name: 'skill_read_file',
      description:
        "Reads one text file of a skill's folder (a path skill_load listed, relative to the folder, e.g. references/guide.md).",
      parameters: {
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 64, description: 'the skill name' },
          path: { type: 'string', minLength: 1, maxLength: 1024, description: 'relative to the skill folder' },
        },
        required: ['name', 'path'],
      },
      effects: [],
      approval: 'never',
      timeoutMs: 6_000,
    }),
    execute: (params, context) =>
      skills.readFile({ name: params.name, path: params.path }, { signal: context.signal, callId: context.callId }),
  };
}
