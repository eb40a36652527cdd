import { UnknownToolError, type Tool, type ToolCatalog } from '@talon/tool-runtime';
import { toCatalogTool } from './catalog-view.js';
import { controlPlaneToolDefinition } from './control-plane-tool-definition.js';

const DEFINITION = controlPlaneToolDefinition({
  name: 'tool_info',
  description:
    'Describes one tool of the live catalog: its parameters (JSON Schema), effects, approval, timeout and the instances that run it.',
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

/** `tool_info` as a tool the model can call; runs in the orchestrator over its own catalog. */
export function createToolInfoTool(catalog: ToolCatalog): Tool<{ name: string }> {
  return {
    definition: DEFINITION,
    async execute({ name }) {
      const entry = catalog.get(name);
      if (!entry) throw new UnknownToolError(name);
      return toCatalogTool(entry);
    },
  };
}
