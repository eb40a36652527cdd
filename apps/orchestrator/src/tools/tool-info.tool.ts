import { UnknownToolError, type Tool, type ToolCatalog } from '@talon/tool-runtime';
import { toCatalogTool } from './catalog-view.js';
import { controlPlaneToolDefinition } from './control-plane-tool-definition.js';

const DEFINITION = controlPlaneToolDefinition({
  name: 'tool_info',
  description:
    'Describes one tool of the live catalog: its parameters (JSON Schema), effects, approval, timeout and the instances that run it; for a tool made by tool_build also its source, versions and capabilities.',
  parameters: {
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 128, description: 'the tool name, e.g. "http"' },
    },
    required: ['name'],
  },
  effects: [],
  approval: 'never',
  timeoutMs: 2000,
});

/** Reads what the wasm-runner keeps about a built tool (its `extension_info` answer's `built`). */
export type BuiltToolDescriber = (name: string) => Promise<unknown>;

/**
 * `tool_info` as a tool the model can call; runs in the orchestrator over its own catalog. A tool with source
 * `built` also shows what `describeBuilt` answers: its source kept beside the artifact, versions, capabilities.
 */
export function createToolInfoTool(
  catalog: ToolCatalog,
  describeBuilt?: BuiltToolDescriber,
): Tool<{ name: string }> {
  return {
    definition: DEFINITION,
    async execute({ name }) {
      const entry = catalog.get(name);
      if (!entry) throw new UnknownToolError(name);
      const tool = toCatalogTool(entry);
      if (entry.definition.source !== 'built' || !describeBuilt) return tool;
      return { ...tool, built: await describeBuilt(name) };
    },
  };
}
