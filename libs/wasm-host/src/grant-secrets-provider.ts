import type { CredentialGrant } from '@talon/tool-runtime';
import type { SecretsProvider } from './secrets-provider.js';

/** A provider over the credential grants of one call (the orchestrator sends them with the request). */
export class GrantSecretsProvider implements SecretsProvider {
  constructor(private readonly grants: readonly CredentialGrant[]) {}

  async get(name: string): Promise<string | undefined> {
    return this.grants.find((grant) => grant.secretName === name)?.value;
  }
}
