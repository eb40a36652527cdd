import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Bytes in (or for) the artifact store do not hash to the sha256 they are stored under. */
export class ArtifactIntegrityError extends TalonError {
  constructor(bucket: string, expected: string, actual: string) {
    super(
      ERROR_CODES.INTEGRITY_MISMATCH,
      `The artifact ${expected} in ${bucket} has sha256 ${actual}; it was changed after it was stored. Nothing was installed from it: install the tool again from its registry entry.`,
      { details: { bucket, expected, actual, check: 'sha256' } },
    );
  }
}
