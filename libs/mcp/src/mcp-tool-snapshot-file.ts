import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { McpToolInfo } from './mcp-connection.js';

/** Every server's last tool list, as {@link McpManager.toolSnapshot} gives it. */
export type McpToolSnapshot = Record<string, McpToolInfo[]>;

/**
 * Reads a snapshot written by {@link writeMcpToolSnapshot}. A missing or unreadable file is an empty
 * snapshot: the servers then list their tools on first start, as without one.
 */
export async function readMcpToolSnapshot(file: string): Promise<McpToolSnapshot> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter((entry): entry is [string, McpToolInfo[]] =>
        Array.isArray(entry[1]),
      ),
    );
  } catch {
    return {};
  }
}

/** Writes a snapshot atomically (temp file, then rename), so a crash never leaves half a file. */
export async function writeMcpToolSnapshot(file: string, snapshot: McpToolSnapshot): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // A random suffix: runners in containers all run as pid 1 and may share this folder.
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, JSON.stringify(snapshot));
  await rename(temporary, file);
}
