import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A shared-state bucket exists with settings Talon cannot use; it is never changed silently. */
export class StateBucketMismatchError extends TalonError {
  constructor(bucket: string, differences: readonly string[]) {
    super(
      ERROR_CODES.STATE_BUCKET_MISMATCH,
      `The JetStream bucket ${bucket} exists with other settings (${differences.join('; ')}). Fix them on the server, or back the bucket up and delete it so Talon creates it again.`,
      { details: { bucket, differences } },
    );
  }
}
