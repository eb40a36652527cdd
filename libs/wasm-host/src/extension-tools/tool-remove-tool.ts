import type { Tool } from '@talon/tool-runtime';
import type { ToolInstaller } from '../tool-installer.js';
import { extensionToolDefinition } from './extension-tool-definition.js';

/** Params of `tool_remove`. */
export type ToolRemoveParams = { name: string };

/** `tool_remove`: unregisters an installed tool (calls in flight finish first) and deletes its state. */
export function createToolRemoveTool(installer: ToolInstaller): Tool<ToolRemoveParams, { removed: string }> {
  return {
    definition: extensionToolDefinition({
      name: 'tool_remove',
      description: 'Removes an installed sandboxed tool; it disappears from the tool list at once.',
      parameters: {
        type: 'object',
        properties: { name: { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' } },
        required: ['name'],
        additionalProperties: false,
      },
      effects: ['modify_extension'],
      approval: 'unless_auto_approved',
      idempotent: false,
      timeoutMs: 60_000,
    }),
    async execute(params) {
      await installer.remove(params.name);
      return { removed: params.name };
    },
  };
}
