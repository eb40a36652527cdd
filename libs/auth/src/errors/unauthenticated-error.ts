import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** No token, or one that is unknown, revoked or expired. */
export class UnauthenticatedError extends TalonError {
  constructor(reason: string) {
    super(
      ERROR_CODES.UNAUTHENTICATED,
      `${reason} Send a Talon token as "Authorization: Bearer <token>" (HTTP), "authorization" metadata (gRPC) or a "talon-token" header (NATS); create one with "talon token create".`,
    );
  }
}
