import type { SecretCipher } from '@talon/agent';
import { ERROR_CODES, type ToolCallRequest } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { PrismaClient } from '@talon/persistence';
import { hostMatchesPattern } from '@talon/safety';

/** A credential grant as sent with one call. */
type CredentialGrant = NonNullable<ToolCallRequest['grants']>[number];

/** Where the host puts a secret in an allowlisted request. */
export interface SecretLocation {
  kind: 'bearer' | 'header' | 'query';
  name?: string;
}

/** A secret as listed: never its value. */
export interface SecretListing {
  name: string;
  hostPatterns: string[];
  location: SecretLocation;
  updatedAt: string;
}

const NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/;

/**
 * Secrets encrypted at rest (AES-256-GCM via SecretCipher). The model never sees a value: listings
 * show names and injection rules, and a value leaves this store only as a grant for one outbound
 * request whose host matches the secret's patterns.
 */
export class SecretStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: SecretCipher,
  ) {}

  async set(
    name: string,
    value: string,
    options: { hostPatterns?: string[]; location?: SecretLocation } = {},
  ): Promise<SecretListing> {
    if (!NAME_PATTERN.test(name))
      throw new TalonError(
        ERROR_CODES.SCHEMA_VIOLATION,
        `"${name}" is not a secret name: use letters, digits, _ . - (start with a letter).`,
      );
    if (value.length === 0)
      throw new TalonError(ERROR_CODES.SCHEMA_VIOLATION, 'A secret value cannot be empty.');
    const data = {
      sealed: this.cipher.encrypt(name, value),
      hostPatterns: options.hostPatterns ?? [],
      location: (options.location ?? { kind: 'bearer' }) as object,
    };
    const row = await this.prisma.secret.upsert({ where: { name }, create: { name, ...data }, update: data });
    return this.listing(row);
  }

  async list(): Promise<SecretListing[]> {
    const rows = await this.prisma.secret.findMany({ orderBy: { name: 'asc' } });
    return rows.map((row) => this.listing(row));
  }

  async delete(name: string): Promise<boolean> {
    const { count } = await this.prisma.secret.deleteMany({ where: { name } });
    return count > 0;
  }

  /** Grants for the secrets whose host patterns match `url`'s host: what the http tool may inject. */
  async grantsForUrl(url: string): Promise<CredentialGrant[]> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return [];
    }
    const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
    const rows = await this.prisma.secret.findMany();
    return rows
      .filter((row) =>
        (row.hostPatterns as string[]).some((pattern) => hostMatchesPattern(parsed.hostname, port, pattern)),
      )
      .map((row) => ({
        secretName: row.name,
        value: this.cipher.decrypt(row.name, row.sealed),
        hostPatterns: row.hostPatterns as string[],
        location: row.location as unknown as SecretLocation,
      }));
  }

  /** One decrypted value, or undefined: only for MCP credentials (see McpSecretsResponder), never for tools. */
  async valueOf(name: string): Promise<string | undefined> {
    const row = await this.prisma.secret.findUnique({ where: { name } });
    return row ? this.cipher.decrypt(row.name, row.sealed) : undefined;
  }

  /** Grants for the named secrets (those that exist): what a WebAssembly tool declared it may use. */
  async grantsForNames(names: readonly string[]): Promise<CredentialGrant[]> {
    // MCP OAuth entries (`mcp.oauth.*`) belong to the tool-workers' MCP connections, never to a tool.
    const allowed = names.filter((name) => !name.startsWith('mcp.oauth.'));
    if (allowed.length === 0) return [];
    const rows = await this.prisma.secret.findMany({ where: { name: { in: allowed } } });
    return rows.map((row) => ({
      secretName: row.name,
      value: this.cipher.decrypt(row.name, row.sealed),
      hostPatterns: row.hostPatterns as string[],
      location: row.location as unknown as SecretLocation,
    }));
  }

  private listing(row: {
    name: string;
    hostPatterns: unknown;
    location: unknown;
    updatedAt: Date;
  }): SecretListing {
    return {
      name: row.name,
      hostPatterns: row.hostPatterns as string[],
      location: row.location as unknown as SecretLocation,
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}
