/** A seccomp profile Talon cannot compile: malformed, or using a feature the compiler does not support. */
export class SeccompProfileError extends Error {
  readonly code = 'SECCOMP_PROFILE_INVALID';

  constructor(message: string) {
    super(message);
    this.name = 'SeccompProfileError';
  }
}
