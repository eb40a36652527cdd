import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import type { RegistrySearchHit } from '../tool-package-registry.js';
import { extensionToolDefinition } from './extension-tool-definition.js';

/** Params of `tool_search`. */
export type ToolSearchParams = { query: string; limit?: number };

/** `tool_search`: finds installable component tools in the registry, with their auth needs and install state. */
export function createToolSearchTool(
  installer: ToolInstaller,
): Tool<ToolSearchParams, { results: (RegistrySearchHit & { installed: boolean })[] }> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_search',
      description:
        'Searches the tool registry for installable sandboxed tools by keyword. An empty query lists everything.',
      parameters: {
        type: 'object',
        properties: {
          query: { type: 'string', maxLength: 200, description: 'Keywords, e.g. "weather api".' },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        },
        required: ['query'],
        additionalProperties: false,
      },
      effects: [],
      approval: 'never',
      idempotent: true,
    }),
    async execute(params) {
      const hits = installer.search(params.query, params.limit ?? 10);
      return { results: hits.map((hit) => ({ ...hit, installed: installer.get(hit.name) !== undefined })) };
    },
  };
}
