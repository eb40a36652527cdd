/** The host user a sandbox runs as, and the name it has inside. */
export interface SandboxIdentity {
  uid: number;
  gid: number;
  /** Whether Talon runs as root and must drop to `uid`/`gid` before starting bubblewrap. */
  dropFromRoot: boolean;
}

/** The unprivileged user a root service drops to by default (`nobody`). */
export const DEFAULT_SANDBOX_UID = 65534;
export const DEFAULT_SANDBOX_GID = 65534;

/**
 * A sandbox always runs as an unprivileged host user: the service's own user, or, when the service runs
 * as root, `TALON_SANDBOX_UID`/`TALON_SANDBOX_GID` (default 65534). Root inside a user namespace would
 * still be uid 0 on the host, which the kernel exempts from the process limit (fork bombs would not end)
 * and which owns every root file the profile binds.
 */
export function resolveSandboxIdentity(env: NodeJS.ProcessEnv = process.env): SandboxIdentity {
  const uid = process.getuid?.() ?? DEFAULT_SANDBOX_UID;
  const gid = process.getgid?.() ?? DEFAULT_SANDBOX_GID;
  if (uid !== 0) return { uid, gid, dropFromRoot: false };
  return {
    uid: idFrom(env.TALON_SANDBOX_UID, DEFAULT_SANDBOX_UID, 'TALON_SANDBOX_UID'),
    gid: idFrom(env.TALON_SANDBOX_GID, DEFAULT_SANDBOX_GID, 'TALON_SANDBOX_GID'),
    dropFromRoot: true,
  };
}

function idFrom(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 4_294_967_294)
    throw new Error(`${name}=${raw} is not a valid unprivileged id: give a number above 0.`);
  return value;
}
