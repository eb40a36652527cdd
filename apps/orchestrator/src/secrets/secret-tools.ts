import type { ToolDefinition } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import type { SecretStore } from './secret-store.js';

function definition(name: string, description: string, parameters: Record<string, unknown>, effects: ToolDefinition['effects'], approval: ToolDefinition['approval']): ToolDefinition {
  return { name, description, parameters: { type: 'object', additionalProperties: false, ...parameters }, effects, approval, timeoutMs: 10_000, domain: 'orchestrator', source: 'builtin', sensitiveParams: [], idempotent: approval === 'never' };
}

/**
 * `secret_list` and `secret_delete` for the model: names and injection rules only. There is no
 * `secret_set` tool on purpose: values come in through the API or the CLI, never through a model.
 */
export function createSecretTools(store: SecretStore): Tool[] {
  const list: Tool<Record<string, never>> = {
    definition: definition('secret_list', 'Lists stored secrets by name with the hosts they may be sent to; values are never shown.', { properties: {} }, [], 'never'),
    async execute() {
      return { secrets: await store.list() };
    },
  };
  const remove: Tool<{ name: string }> = {
    definition: definition('secret_delete', 'Deletes a stored secret by name.', { properties: { name: { type: 'string', minLength: 1, maxLength: 128 } }, required: ['name'] }, ['use_secret', 'modify_extension'], 'always'),
    async execute({ name }) {
      return { name, deleted: await store.delete(name) };
    },
  };
  return [list, remove] as unknown as Tool[];
}
