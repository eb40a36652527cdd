import { WASM_DECLARED_SECRETS_SUBJECT, type WasmDeclaredSecretsReply } from '@talon/contracts';
import type { NatsRequester } from '@talon/service-runtime';
import type { CredentialGrant, ToolLookup } from '@talon/tool-runtime';
import type { SecretStore } from '../secrets/secret-store.js';
import { hostPatternsCover } from './credential-host-coverage.js';

const LOOKUP_TIMEOUT_MS = 2000;

/**
 * Which secrets a model's call to an installed WebAssembly tool may be granted: the credentials its
 * capabilities declare, asked from the wasm-runner on each call (so an upgrade that changes them counts at once). Only
 * tools from source `wasm` with the `use_secret` effect are asked; every other tool gets none.
 */
export class WasmDeclaredSecrets {
  constructor(
    private readonly catalog: ToolLookup,
    private readonly requester: NatsRequester,
  ) {}

  /** The tool's declared credentials: secret name and the host patterns the runner injects it for. */
  async credentialsFor(tool: string): Promise<WasmDeclaredSecretsReply['credentials']> {
    const definition = this.catalog.get(tool)?.definition;
    const component = definition?.source === 'wasm' || definition?.source === 'built';
    if (!component || !definition.effects.includes('use_secret')) return [];
    const reply = await this.requester.request<WasmDeclaredSecretsReply>(
      WASM_DECLARED_SECRETS_SUBJECT,
      { tool },
      { timeoutMs: LOOKUP_TIMEOUT_MS },
    );
    return reply.credentials;
  }

  /**
   * Grants for one call of `tool`: the stored secrets it declares as credentials, each only when the
   * operator's host patterns for that secret cover every host pattern the tool declares for it.
   */
  async grantsFor(tool: string, secrets: SecretStore): Promise<CredentialGrant[]> {
    const declared = await this.credentialsFor(tool);
    if (declared.length === 0) return [];
    const grants = await secrets.grantsForNames([
      ...new Set(declared.map((credential) => credential.secretName)),
    ]);
    return grants.filter((grant) =>
      declared
        .filter((credential) => credential.secretName === grant.secretName)
        .every((credential) => hostPatternsCover(grant.hostPatterns, credential.hostPatterns)),
    );
  }
}
