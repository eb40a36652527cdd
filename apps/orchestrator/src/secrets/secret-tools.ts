import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';
import type { Tool } from '@talon/tool-runtime';
import type { SecretStore } from './secret-store.js';

/**
 * `secret_list` and `secret_delete` for the model: names and injection rules only. There is no
 * `secret_set` tool on purpose: values come in through the API or the CLI, never through a model.
 */
export function createSecretTools(store: SecretStore): Tool[] {
  const list: Tool<Record<string, never>> = {
    definition: controlPlaneToolDefinition({
      name: 'secret_list',
      description: 'Lists stored secrets by name with the hosts they may be sent to; values are never shown.',
      parameters: { properties: {} },
      effects: [],
      approval: 'never',
    }),
    async execute() {
      return { secrets: await store.list() };
    },
  };
  const remove: Tool<{ name: string }> = {
    definition: controlPlaneToolDefinition({
      name: 'secret_delete',
      description: 'Deletes a stored secret by name.',
      parameters: {
        properties: { name: { type: 'string', minLength: 1, maxLength: 128 } },
        required: ['name'],
      },
      effects: ['use_secret', 'modify_extension'],
      approval: 'always',
      idempotent: false,
    }),
    async execute({ name }) {
      return { name, deleted: await store.delete(name) };
    },
  };
  return [list, remove] as unknown as Tool[];
}
