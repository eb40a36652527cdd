import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** How an operator makes the sandbox available, named in every refusal. */
export const SANDBOX_FIX =
  'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or in a container run the wasm-runner with ' +
  "the security options in docker-compose.yml (Talon's seccomp profile deploy/seccomp/wasm-runner.json, " +
  'apparmor=unconfined, systempaths=unconfined); ' +
  'an operator who accepts the risk may set TALON_SANDBOX=off to run processes unsandboxed.';

/** A process that must run sandboxed was refused because the sandbox cannot start on this host. */
export class SandboxUnavailableError extends TalonError {
  constructor(what: string, reason: string) {
    super(
      ERROR_CODES.SANDBOX_UNAVAILABLE,
      `${what} refused: the process sandbox is unavailable (${reason}). ${SANDBOX_FIX}`,
      { details: { reason, fix: SANDBOX_FIX } },
    );
  }
}
