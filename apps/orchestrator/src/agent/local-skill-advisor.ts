import type { SkillAdvisor, ToolSource } from '@talon/agent';
import {
  ERROR_CODES,
  type ActiveSkill,
  type AttenuateResult,
  type SelectResult,
  type ToolDefinition,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import {
  attenuateTools,
  fillSkillParameters,
  gateSelectionByTools,
  SkillParameterError,
  type InstallableTools,
} from '@talon/skills';
import type { SkillServiceClient } from '../skills/skill-service-client.js';
import type { SkillMcpStarter } from './skill-mcp-starter.js';

/**
 * Selection asks the skill-service (it owns the skill index); the declared tools of the selected skills are
 * then resolved here against the live catalog and the registry (a skill missing a required tool is gated out
 * with the reason). Attenuation runs here with the same library function the skill-service uses: it is a
 * pure function of the active skills' trust and the tool list, and the loop re-attenuates before every model
 * call, so computing it locally saves two round trips that each carried the whole catalog.
 */
export class LocalSkillAdvisor implements SkillAdvisor {
  constructor(
    private readonly client: SkillServiceClient,
    private readonly tools: ToolSource,
    private readonly installable: InstallableTools,
    private readonly mcpStarter?: SkillMcpStarter,
  ) {}

  async select(
    message: string,
    options: { signal?: AbortSignal; parameters?: Readonly<Record<string, Record<string, unknown>>> } = {},
  ): Promise<SelectResult> {
    const selection = await this.client.select(message, {
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.parameters ? { parameters: { ...options.parameters } } : {}),
    });
    const started =
      (await this.mcpStarter?.startFor(selection, options.signal)) ?? new Map<string, string[]>();
    const gated = gateSelectionByTools(selection, this.catalogNames(), this.installable);
    if (started.size === 0) return gated;
    return {
      ...gated,
      active: gated.active.map((skill) =>
        started.has(skill.name)
          ? { ...skill, reasons: [...skill.reasons, ...started.get(skill.name)!] }
          : skill,
      ),
      considered: gated.considered.map((entry) =>
        started.has(entry.name)
          ? { ...entry, reasons: [...entry.reasons, ...started.get(entry.name)!] }
          : entry,
      ),
    };
  }

  async attenuate(
    activeSkills: readonly ActiveSkill[],
    tools: readonly ToolDefinition[],
  ): Promise<AttenuateResult> {
    return attenuateTools(
      activeSkills.map(({ name, trust, allowedTools }) => ({
        name,
        trust,
        ...(allowedTools ? { allowedTools: [...allowedTools] } : {}),
      })),
      tools,
    );
  }

  /**
   * One skill by name for `execute_skill`: its parameters checked against its declaration first (a missing
   * required one is an error here, not a question to a user), then a `$name` mention selected alone and gated
   * by its tools.
   */
  async activate(
    name: string,
    parameters: Readonly<Record<string, unknown>>,
    options: { signal?: AbortSignal } = {},
  ): Promise<ActiveSkill> {
    const listing = await this.client.list({}, options.signal ? { signal: options.signal } : {});
    const summary = listing.skills.find((skill) => skill.name === name);
    if (summary === undefined)
      throw new TalonError(
        ERROR_CODES.NOT_FOUND,
        `No skill named "${name}" can be executed; skill_list shows the skills and their parameters.`,
        { details: { skill: name } },
      );
    if (!summary.gating.eligible)
      throw new TalonError(
        ERROR_CODES.SKILL_GATED_OUT,
        `The skill "${name}" cannot run here: ${summary.gating.reasons.join('; ')}.`,
        { details: { skill: name, reasons: summary.gating.reasons } },
      );
    const filled = fillSkillParameters(summary, { source: 'execute_skill', values: parameters });
    const [missing] = filled.missing;
    if (missing !== undefined)
      throw new SkillParameterError(name, missing.name, 'is required and has no default');
    const selection = await this.select(`$${name}`, {
      ...options,
      parameters: { [name]: filled.values },
    });
    const active = selection.active.find((skill) => skill.name === name);
    if (active) return active;
    const considered = selection.considered.find((skill) => skill.name === name);
    if (considered?.outcome === 'gated_out')
      throw new TalonError(
        ERROR_CODES.SKILL_GATED_OUT,
        `The skill "${name}" cannot run here: ${considered.reasons.join('; ')}.`,
        { details: { skill: name, reasons: considered.reasons } },
      );
    if (considered?.outcome === 'render_failed') {
      const problem = considered.reasons.at(-1) ?? 'its body did not render';
      throw new TalonError(
        /template/i.test(problem) ? ERROR_CODES.SKILL_TEMPLATE_INVALID : ERROR_CODES.SCHEMA_VIOLATION,
        problem,
        { details: { skill: name } },
      );
    }
    throw new TalonError(
      ERROR_CODES.NOT_FOUND,
      `No skill named "${name}" can be executed; skill_list shows the skills and their parameters.`,
      { details: { skill: name } },
    );
  }

  private catalogNames(): ReadonlySet<string> {
    return new Set(this.tools.list().map((tool) => tool.name));
  }
}
