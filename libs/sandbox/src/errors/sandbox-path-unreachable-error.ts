import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { UnreachableDirectory } from '../sandbox-path-access.js';

/**
 * A process was refused because the sandbox user cannot enter a directory on the way to a path its
 * profile binds: bubblewrap, running as that user, would fail with a bare "Can't find source path".
 */
export class SandboxPathUnreachableError extends TalonError {
  constructor(what: string, uid: number, blocked: UnreachableDirectory) {
    const { directory, path, mode, ownerUid } = blocked;
    const fix =
      `Let uid ${uid} enter ${directory} (for example chmod o+x ${directory}), keep the workspace and ` +
      'TALON_STATE_DIR below directories it can enter, or set TALON_SANDBOX_UID/TALON_SANDBOX_GID to a user that can.';
    super(
      ERROR_CODES.SANDBOX_PATH_UNREACHABLE,
      `${what} refused: the sandbox user (uid ${uid}) cannot enter ${directory} ` +
        `(mode ${mode.toString(8).padStart(4, '0')}, owner uid ${ownerUid}), on the way to ${path}. ${fix}`,
      { details: { directory, path, sandboxUid: uid, fix } },
    );
  }
}
