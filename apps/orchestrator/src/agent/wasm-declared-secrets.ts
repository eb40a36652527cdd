import { WASM_DECLARED_SECRETS_SUBJECT, type WasmDeclaredSecretsReply } from '@talon/contracts';
import type { NatsRequester } from '@talon/service-runtime';
import type { ToolLookup } from '@talon/tool-runtime';

const LOOKUP_TIMEOUT_MS = 2000;

/**
 * Which secrets a model's call to an installed WebAssembly tool may be granted: the names its capabilities
 * declare, asked from the wasm-runner on each call (so an upgrade that changes them counts at once). Only
 * tools from source `wasm` with the `use_secret` effect are asked; every other tool gets none.
 */
export class WasmDeclaredSecrets {
  constructor(
    private readonly catalog: ToolLookup,
    private readonly requester: NatsRequester,
  ) {}

  async namesFor(tool: string): Promise<string[]> {
    const definition = this.catalog.get(tool)?.definition;
    if (definition?.source !== 'wasm' || !definition.effects.includes('use_secret')) return [];
    const reply = await this.requester.request<WasmDeclaredSecretsReply>(WASM_DECLARED_SECRETS_SUBJECT, { tool }, { timeoutMs: LOOKUP_TIMEOUT_MS });
    return reply.secrets;
  }
}
