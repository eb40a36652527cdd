/** Where the host looks up secret values for injection. Values never cross into the worker. */
export interface SecretsProvider {
  /** The value of a secret, or undefined when it is not configured. */
  get(name: string): Promise<string | undefined>;
}
