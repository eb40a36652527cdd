import { chmodSync, chownSync, mkdtempSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { resolveSandboxIdentity } from '@talon/sandbox';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@talon/tool-runtime';

/** A real temporary workspace with a sibling `outside` directory holding a secret file. */
export interface WorkspaceFixture {
  base: string;
  root: string;
  outside: string;
  context: ToolContext;
  write(relative: string, content: string): string;
  cleanup(): void;
}

/** Creates `<tmp>/root` (the workspace) and `<tmp>/outside/secret.txt`. */
export function createWorkspaceFixture(): WorkspaceFixture {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'talon-dev-tools-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'TOP SECRET\n');
  // As root the sandbox runs as an unprivileged user, which must be able to reach and write the workspace.
  const identity = resolveSandboxIdentity();
  if (identity.dropFromRoot) {
    chmodSync(base, 0o755);
    chownSync(root, identity.uid, identity.gid);
  }
  return {
    base,
    root,
    outside,
    context: { callId: 'test-call', signal: new AbortController().signal, grants: [], log: () => undefined },
    write(relative: string, content: string): string {
      const path = join(root, relative);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    cleanup() {
      rmSync(base, { recursive: true, force: true });
    },
  };
}
