import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A record names an artifact the store does not hold (deleted, or never uploaded). */
export class ArtifactMissingError extends TalonError {
  constructor(bucket: string, sha256: string) {
    super(
      ERROR_CODES.NOT_FOUND,
      `The artifact ${sha256} is not in ${bucket}; install the tool again so its artifact is uploaded.`,
      { details: { bucket, sha256 } },
    );
  }
}
