import type { ApiScope } from '@talon/contracts';
import type { StoredApiToken, TokenStore } from '@talon/auth';
import type { Database } from '@talon/persistence';

type Row = {
  id: string;
  name: string;
  scope: string;
  hash: string;
  createdAt: Date;
  createdBy: string;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

function toStored(row: Row): StoredApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope as ApiScope,
    hash: row.hash,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    ...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt } : {}),
    ...(row.expiresAt ? { expiresAt: row.expiresAt } : {}),
    ...(row.revokedAt ? { revokedAt: row.revokedAt } : {}),
  };
}

/** API tokens in the `api_token` table, shared by every orchestrator. */
export class PrismaTokenStore implements TokenStore {
  constructor(private readonly prisma: Database['prisma']) {}

  async findByHash(hash: string): Promise<StoredApiToken | undefined> {
    const row = await this.prisma.apiToken.findUnique({ where: { hash } });
    return row ? toStored(row) : undefined;
  }

  async insert(token: StoredApiToken): Promise<boolean> {
    // ON CONFLICT DO NOTHING: two orchestrators bootstrapping the same token both succeed, one row stays.
    const inserted = await this.prisma.$executeRaw`
      INSERT INTO "api_token" ("id", "name", "scope", "hash", "created_at", "expires_at", "created_by")
      VALUES (${token.id}, ${token.name}, ${token.scope}, ${token.hash}, ${token.createdAt}, ${token.expiresAt ?? null}, ${token.createdBy})
      ON CONFLICT ("hash") DO NOTHING`;
    return inserted === 1;
  }

  async list(options: { includeRevoked: boolean }): Promise<StoredApiToken[]> {
    const rows = await this.prisma.apiToken.findMany({
      where: options.includeRevoked ? {} : { revokedAt: null },
      orderBy: { createdAt: 'asc' },
    });
    return rows.map(toStored);
  }

  async revoke(id: string, at: Date): Promise<StoredApiToken | undefined> {
    await this.prisma.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    const row = await this.prisma.apiToken.findUnique({ where: { id } });
    return row ? toStored(row) : undefined;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.prisma.apiToken.updateMany({ where: { id }, data: { lastUsedAt: at } });
  }

  async hasActiveOperator(now: Date): Promise<boolean> {
    const count = await this.prisma.apiToken.count({
      where: { scope: 'operator', revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    });
    return count > 0;
  }
}
