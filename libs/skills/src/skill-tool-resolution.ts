import type { ActiveSkill, SelectResult, SkillToolDeclaration } from '@talon/contracts';

/** What the registry could add to the live catalog. */
export interface InstallableTools {
  /** WebAssembly tools by the name `tool_install` takes (`text-stats`). */
  wasm: readonly string[];
  /** MCP server definitions by name; a declared `server_tool` or `server.tool` comes from starting one. */
  mcpServers: readonly string[];
}

/** No registry: only the live catalog counts. */
export const NO_INSTALLABLE_TOOLS: InstallableTools = { wasm: [], mcpServers: [] };

/** A declared tool that is not in the catalog but can be brought in; installing asks, as `tool_install` does. */
export interface ToolOffer {
  tool: string;
  optional: boolean;
  /** The call that brings it in: `tool_install {name}` (always asks) or `mcp_start {server}`. */
  via: { tool: 'tool_install'; params: { name: string } } | { tool: 'mcp_start'; params: { server: string } };
}

/** How a skill's declared tools stand against the live catalog. */
export interface SkillToolResolution {
  present: string[];
  offers: ToolOffer[];
  /** Declared tools neither present nor installable. */
  missing: SkillToolDeclaration[];
  /** False when a required (non-optional) tool is missing: the skill is gated out. */
  eligible: boolean;
  /** One sentence per offer or missing tool, for the activation report. */
  reasons: string[];
}

/**
 * Resolves declared tools against the live catalog (LLM-facing names) and the registry. The rule: every
 * tool of `tools:` is required unless marked optional; a required tool that is neither in the catalog nor
 * installable gates the skill out with the reason; an installable one is offered (the skill stays active
 * and its activation says how to install it — the install itself goes through policy and asks); a missing
 * optional tool is only reported. `allowed-tools` entries are pre-approvals, not requirements, and are not
 * resolved here.
 */
export function resolveSkillTools(
  declared: readonly SkillToolDeclaration[],
  catalog: ReadonlySet<string>,
  installable: InstallableTools = NO_INSTALLABLE_TOOLS,
): SkillToolResolution {
  const resolution: SkillToolResolution = { present: [], offers: [], missing: [], eligible: true, reasons: [] };
  const wasm = new Map<string, string>();
  for (const name of installable.wasm) {
    wasm.set(name, name);
    wasm.set(name.replace(/-/g, '_'), name);
  }
  for (const tool of declared) {
    if (catalog.has(tool.name) || catalog.has(tool.name.replace(/\./, '_'))) {
      resolution.present.push(tool.name);
      continue;
    }
    const offer = offerFor(tool, wasm, installable.mcpServers);
    if (offer) {
      resolution.offers.push(offer);
      resolution.reasons.push(
        offer.via.tool === 'tool_install'
          ? `tool "${tool.name}" is not installed; tool_install {"name": "${offer.via.params.name}"} installs it (asks for approval)`
          : `tool "${tool.name}" comes from the MCP server "${offer.via.params.server}", which is not running; mcp_start {"server": "${offer.via.params.server}"} starts it`,
      );
      continue;
    }
    resolution.missing.push(tool);
    if (tool.optional) resolution.reasons.push(`optional tool "${tool.name}" is not available`);
    else {
      resolution.eligible = false;
      resolution.reasons.push(`required tool "${tool.name}" is not available and not installable`);
    }
  }
  return resolution;
}

function offerFor(
  tool: SkillToolDeclaration,
  wasm: ReadonlyMap<string, string>,
  mcpServers: readonly string[],
): ToolOffer | undefined {
  const registryName = wasm.get(tool.name);
  if (registryName !== undefined)
    return { tool: tool.name, optional: tool.optional, via: { tool: 'tool_install', params: { name: registryName } } };
  const server = mcpServers
    .filter((name) => tool.name.startsWith(`${name}_`) || tool.name.startsWith(`${name}.`))
    .sort((a, b) => b.length - a.length)[0];
  return server === undefined
    ? undefined
    : { tool: tool.name, optional: tool.optional, via: { tool: 'mcp_start', params: { server } } };
}

/**
 * A selection with every active skill's declared tools resolved: skills whose required tools are missing
 * move to `considered` as `gated_out` with the reasons (and leave the injection); the others carry their
 * offers and missing optional tools in `reasons`, and a short note after their block tells the model how to
 * bring the offered tools in.
 */
export function gateSelectionByTools(
  selection: SelectResult,
  catalog: ReadonlySet<string>,
  installable: InstallableTools = NO_INSTALLABLE_TOOLS,
): SelectResult {
  const active: ActiveSkill[] = [];
  const considered = selection.considered.map((entry) => ({ ...entry, reasons: [...entry.reasons] }));
  let tokensUsed = selection.tokensUsed;
  for (const skill of selection.active) {
    const resolution = resolveSkillTools(skill.tools ?? [], catalog, installable);
    const entry = considered.find((candidate) => candidate.name === skill.name);
    if (!resolution.eligible) {
      tokensUsed -= skill.costTokens;
      if (entry) {
        entry.outcome = 'gated_out';
        entry.reasons.push(...resolution.reasons);
      } else
        considered.push({
          name: skill.name,
          trust: skill.trust,
          tier: skill.tier,
          score: skill.score,
          costTokens: skill.costTokens,
          outcome: 'gated_out',
          reasons: resolution.reasons,
        });
      continue;
    }
    if (resolution.reasons.length === 0) {
      active.push(skill);
      continue;
    }
    entry?.reasons.push(...resolution.reasons);
    const note = resolution.offers.length
      ? `\nTools for the skill "${skill.name}": ${resolution.offers.map((offer) => `${offer.tool} via ${offer.via.tool} ${JSON.stringify(offer.via.params)}`).join('; ')}.`
      : '';
    active.push({ ...skill, reasons: [...skill.reasons, ...resolution.reasons], injection: skill.injection + note });
  }
  return {
    ...selection,
    active,
    considered,
    tokensUsed,
    injection: active.map((skill) => skill.injection).join('\n\n'),
  };
}
