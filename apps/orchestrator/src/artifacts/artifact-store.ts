import { createHash } from 'node:crypto';
import { isUuid, type Artifact, type ToolMedia } from '@talon/contracts';
import type { PrismaClient } from '@talon/persistence';

/**
 * Tool-result media by content, in PostgreSQL (so every orchestrator reads what any of them stored): the
 * bytes once per sha256, and each session that saw them, whose owner may read them back. Stored before
 * the reply that names them leaves, so a reference a model or a client reads always resolves.
 */
export class ArtifactStore {
  constructor(private readonly prisma: PrismaClient) {}

  /** Stores each item (its sha256 checked against its bytes; a mismatch is not stored) for a session. */
  async store(media: readonly ToolMedia[], sessionId: string | undefined): Promise<void> {
    const session = sessionId && isUuid(sessionId) ? sessionId : undefined;
    for (const item of media) {
      const bytes = Buffer.from(item.data, 'base64');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (sha256 !== item.sha256) continue;
      await this.prisma.$executeRaw`
        INSERT INTO artifact (sha256, mime_type, size, data) VALUES (${sha256}, ${item.mimeType}, ${bytes.length}, ${bytes})
        ON CONFLICT (sha256) DO NOTHING`;
      if (session)
        await this.prisma.$executeRaw`
          INSERT INTO artifact_session (sha256, session_id) VALUES (${sha256}, ${session}::uuid)
          ON CONFLICT DO NOTHING`;
    }
  }

  /** The artifact, or undefined when there is none with that sha256. */
  async get(sha256: string): Promise<Artifact | undefined> {
    const row = await this.prisma.artifact.findUnique({ where: { sha256 } });
    if (!row) return undefined;
    return {
      sha256: row.sha256,
      mimeType: row.mimeType,
      bytes: row.size,
      data: Buffer.from(row.data).toString('base64'),
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** The sessions an artifact was returned in. */
  async sessionsOf(sha256: string): Promise<string[]> {
    const rows = await this.prisma.artifactSession.findMany({
      where: { sha256 },
      select: { sessionId: true },
    });
    return rows.map((row) => row.sessionId);
  }
}
