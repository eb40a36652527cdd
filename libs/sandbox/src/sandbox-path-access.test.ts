import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unreachableParent } from './sandbox-path-access.js';
import type { SandboxIdentity } from './sandbox-identity.js';

const asRoot = process.getuid?.() === 0;
const NOBODY: SandboxIdentity = { uid: 65534, gid: 65534, dropFromRoot: true };

// The mode-bit reading is what runs when Talon is root; as another user the kernel answers for itself.
(asRoot ? describe : describe.skip)('unreachableParent, for a root service dropping to uid 65534', () => {
  let base: string;
  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), 'talon-reach-'));
    chmodSync(base, 0o755);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it('names the first parent the sandbox user cannot enter, with its mode and owner', () => {
    mkdirSync(join(base, 'private/inner/workspace'), { recursive: true });
    chmodSync(join(base, 'private'), 0o700);
    chmodSync(join(base, 'private/inner'), 0o700);
    expect(unreachableParent(join(base, 'private/inner/workspace'), NOBODY)).toEqual({
      directory: join(base, 'private'),
      path: join(base, 'private/inner/workspace'),
      mode: 0o700,
      ownerUid: 0,
    });
  });

  it('lets through search permission for others, for the owner, and for the group only', () => {
    mkdirSync(join(base, 'a/workspace'), { recursive: true });
    chmodSync(join(base, 'a'), 0o711);
    expect(unreachableParent(join(base, 'a/workspace'), NOBODY)).toBeUndefined();
    chmodSync(join(base, 'a'), 0o700);
    chownSync(join(base, 'a'), 65534, 0);
    expect(unreachableParent(join(base, 'a/workspace'), NOBODY)).toBeUndefined();
    chownSync(join(base, 'a'), 0, 65534);
    chmodSync(join(base, 'a'), 0o750);
    expect(unreachableParent(join(base, 'a/workspace'), NOBODY)).toBeUndefined();
    // Search for others does not help a user in the group when the group bits deny it.
    chmodSync(join(base, 'a'), 0o701);
    expect(unreachableParent(join(base, 'a/workspace'), NOBODY)?.directory).toBe(join(base, 'a'));
  });

  it('checks where a symlink leads, and leaves missing parents to bubblewrap', () => {
    mkdirSync(join(base, 'hidden/data'), { recursive: true });
    chmodSync(join(base, 'hidden'), 0o700);
    symlinkSync(join(base, 'hidden/data'), join(base, 'link'));
    expect(unreachableParent(join(base, 'link'), NOBODY)?.directory).toBe(join(base, 'hidden'));
    expect(unreachableParent(join(base, 'missing/below/path'), NOBODY)).toBeUndefined();
  });

  it('does not judge the path itself: a bound directory may be the sandbox user’s own 0700', () => {
    mkdirSync(join(base, 'workspace'));
    chmodSync(join(base, 'workspace'), 0o700);
    expect(unreachableParent(join(base, 'workspace'), NOBODY)).toBeUndefined();
  });
});
