import type { HandMetric, HandMetricValue } from '@talon/contracts';
import type { PrismaClient } from '@talon/persistence';
import { normalizeMemoryPath } from '../memory/memory-path.js';

/** Longest value shown for a metric (a `text` metric may name a whole document). */
const MAX_VALUE_CHARS = 500;

/** The dashboard figures of a hand, each read from the memory document its hand writes (absent: never written). */
export async function readHandMetrics(
  prisma: PrismaClient,
  metrics: readonly HandMetric[],
): Promise<HandMetricValue[]> {
  if (metrics.length === 0) return [];
  const paths = metrics.map((metric) => safePath(metric.memoryKey));
  const documents = await prisma.memoryDocument.findMany({
    where: { path: { in: paths.filter((path): path is string => path !== undefined) } },
    select: { path: true, content: true, updatedAt: true },
  });
  const byPath = new Map(documents.map((document) => [document.path, document]));
  return metrics.map((metric, index) => {
    const document = paths[index] === undefined ? undefined : byPath.get(paths[index]);
    return {
      label: metric.label,
      memoryKey: metric.memoryKey,
      format: metric.format,
      ...(document
        ? {
            value: document.content.trim().slice(0, MAX_VALUE_CHARS),
            updatedAt: document.updatedAt.toISOString(),
          }
        : {}),
    };
  });
}

function safePath(key: string): string | undefined {
  try {
    return normalizeMemoryPath(key);
  } catch {
    return undefined;
  }
}
