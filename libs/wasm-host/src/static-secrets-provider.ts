import type { SecretsProvider } from './secrets-provider.js';

/** A fixed map of secrets, for tests and local runs. */
export class StaticSecretsProvider implements SecretsProvider {
  constructor(private readonly values: Readonly<Record<string, string>>) {}

  async get(name: string): Promise<string | undefined> {
    return Object.hasOwn(this.values, name) ? this.values[name] : undefined;
  }
}
