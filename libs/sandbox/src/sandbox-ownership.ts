import { lchownSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxIdentity } from './sandbox-identity.js';

/** Most entries {@link handOverToSandboxUser} changes in one directory tree. */
export const MAX_HANDOVER_ENTRIES = 200_000;

/**
 * Gives a directory Talon owns (its workspace, its MCP data directory) to the sandbox user, so sandboxed
 * processes can write there when Talon itself runs as root. Symlinks are changed, never followed. Returns
 * how many entries changed owner. Does nothing when Talon does not run as root.
 */
export function handOverToSandboxUser(root: string, identity: SandboxIdentity): number {
  if (!identity.dropFromRoot) return 0;
  let changed = 0;
  let visited = 0;
  const visit = (path: string) => {
    if (++visited > MAX_HANDOVER_ENTRIES) return;
    const stat = lstatSync(path);
    if (stat.uid !== identity.uid || stat.gid !== identity.gid) {
      lchownSync(path, identity.uid, identity.gid);
      changed += 1;
    }
    if (stat.isDirectory()) for (const entry of readdirSync(path)) visit(join(path, entry));
  };
  visit(root);
  return changed;
}
