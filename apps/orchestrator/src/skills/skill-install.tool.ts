import { ERROR_CODES, type SkillInstallSource } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { Tool } from '@talon/tool-runtime';
import { DEFAULT_SKILL_INSTALL_TIMEOUT_MS, type SkillServiceClient } from './skill-service-client.js';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';

interface SkillInstallParams {
  registry?: string;
  url?: string;
  path?: string;
  sha256?: string;
  replace?: boolean;
}

const SHA256 = {
  type: 'string',
  pattern: '^[a-f0-9]{64}$',
  description: 'expected sha256 of the SKILL.md (hex)',
};

/** Exactly one of registry, url or path names the source; the flat shape is easier for a model than a union. */
function sourceOf(params: SkillInstallParams): SkillInstallSource {
  const given = (['registry', 'url', 'path'] as const).filter((key) => params[key] !== undefined);
  if (given.length !== 1) {
    throw new TalonError(
      ERROR_CODES.SCHEMA_VIOLATION,
      `Give exactly one of registry, url or path (got ${given.length ? given.join(', ') : 'none'}).`,
      { details: { given } },
    );
  }
  const sha = params.sha256 ? { sha256: params.sha256 } : {};
  if (params.registry !== undefined) return { kind: 'registry', name: params.registry };
  if (params.url !== undefined) return { kind: 'url', url: params.url, ...sha };
  return { kind: 'path', path: params.path!, ...sha };
}

/** `skill_install`: adds an Installed skill (suggestions only, read-only tools while active). Always asks first. */
export function createSkillInstallTool(skills: SkillServiceClient): Tool<SkillInstallParams> {
  return {
    definition: controlPlaneToolDefinition({
      name: 'skill_install',
      description:
        'Installs a skill as INSTALLED from a registry entry name, an http(s) URL or a local path; the sha256 is checked when known. ' +
        'While an installed skill is active only read-only tools stay available.',
      parameters: {
        properties: {
          registry: {
            type: 'string',
            minLength: 1,
            maxLength: 64,
            description: 'a registry/skills entry name, e.g. "code-review"',
          },
          url: { type: 'string', minLength: 8, maxLength: 2048, description: 'http(s) URL of a SKILL.md' },
          path: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            description: 'a SKILL.md or skill folder on the skill-service host',
          },
          sha256: SHA256,
          replace: {
            type: 'boolean',
            description: 'replace an installed skill of the same name (default false)',
          },
        },
      },
      effects: ['modify_extension', 'network'],
      approval: 'always',
      timeoutMs: DEFAULT_SKILL_INSTALL_TIMEOUT_MS + 1_000,
    }),
    async execute(params, context) {
      const request = {
        source: sourceOf(params),
        ...(params.replace !== undefined ? { replace: params.replace } : {}),
      };
      return skills.install(request, { signal: context.signal, callId: context.callId });
    },
  };
}
