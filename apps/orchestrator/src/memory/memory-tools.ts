import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { PrismaClient } from '@talon/persistence';
import type { Tool } from '@talon/tool-runtime';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';
import { normalizeMemoryPath } from './memory-path.js';

const MAX_CONTENT_CHARS = 256 * 1024;

const pathParam = { type: 'string', minLength: 1, maxLength: 512, description: 'e.g. notes/2026-11-30.md' };

/**
 * The memory workspace: documents the agent keeps across sessions, stored in the database and searched
 * with PostgreSQL full-text search (the same on PostgreSQL and PGlite).
 */
export function createMemoryTools(prisma: PrismaClient): Tool[] {
  const write: Tool<{ path: string; content: string }> = {
    definition: controlPlaneToolDefinition({
      name: 'memory_write',
      description: 'Writes (creates or replaces) a document in the memory workspace.',
      parameters: {
        properties: { path: pathParam, content: { type: 'string', maxLength: MAX_CONTENT_CHARS } },
        required: ['path', 'content'],
      },
      effects: [],
      approval: 'never',
      idempotent: false,
    }),
    async execute({ path, content }) {
      const normalized = normalizeMemoryPath(path);
      const existing = await prisma.memoryDocument.findUnique({
        where: { path: normalized },
        select: { path: true },
      });
      await prisma.memoryDocument.upsert({
        where: { path: normalized },
        create: { path: normalized, content },
        update: { content },
      });
      return { path: normalized, bytes: Buffer.byteLength(content), created: !existing };
    },
  };
  const read: Tool<{ path: string }> = {
    definition: controlPlaneToolDefinition({
      name: 'memory_read',
      description: 'Reads one document of the memory workspace.',
      parameters: { properties: { path: pathParam }, required: ['path'] },
      effects: [],
      approval: 'never',
      idempotent: true,
    }),
    async execute({ path }) {
      const normalized = normalizeMemoryPath(path);
      const document = await prisma.memoryDocument.findUnique({
        where: { path: normalized },
        select: { path: true, content: true, updatedAt: true },
      });
      if (!document)
        throw new TalonError(
          ERROR_CODES.NOT_FOUND,
          `No memory document at "${normalized}"; memory_tree lists what exists.`,
          { details: { path: normalized } },
        );
      return { path: document.path, content: document.content, updatedAt: document.updatedAt.toISOString() };
    },
  };
  const search: Tool<{ query: string; limit?: number }> = {
    definition: controlPlaneToolDefinition({
      name: 'memory_search',
      description:
        'Full-text search over the memory workspace; returns the best matching documents with a snippet.',
      parameters: {
        properties: {
          query: { type: 'string', minLength: 1, maxLength: 500 },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        },
        required: ['query'],
      },
      effects: [],
      approval: 'never',
      idempotent: true,
    }),
    async execute({ query, limit = 10 }) {
      const rows = await prisma.$queryRaw<Array<{ path: string; rank: number; snippet: string }>>`
        SELECT path, ts_rank(search, q)::float8 AS rank,
               ts_headline('simple', content, q, 'MaxFragments=2, MaxWords=20, MinWords=5') AS snippet
        FROM memory_document, websearch_to_tsquery('simple', ${query}) AS q
        WHERE search @@ q
        ORDER BY rank DESC, path
        LIMIT ${limit}`;
      return {
        query,
        results: rows.map((row) => ({
          path: row.path,
          rank: Math.round(row.rank * 1e4) / 1e4,
          snippet: row.snippet,
        })),
      };
    },
  };
  const tree: Tool<{ prefix?: string }> = {
    definition: controlPlaneToolDefinition({
      name: 'memory_tree',
      description: 'Lists the documents of the memory workspace, optionally under a folder.',
      parameters: {
        properties: { prefix: { type: 'string', maxLength: 512, description: 'folder, e.g. notes' } },
      },
      effects: [],
      approval: 'never',
      idempotent: true,
    }),
    async execute({ prefix }) {
      const folder = prefix ? `${normalizeMemoryPath(prefix)}/` : '';
      const rows = await prisma.memoryDocument.findMany({
        where: folder ? { path: { startsWith: folder } } : {},
        select: { path: true, updatedAt: true },
        orderBy: { path: 'asc' },
        take: 1000,
      });
      return {
        prefix: folder,
        documents: rows.map((row) => ({ path: row.path, updatedAt: row.updatedAt.toISOString() })),
        truncated: rows.length === 1000,
      };
    },
  };
  return [write, read, search, tree] as unknown as Tool[];
}
