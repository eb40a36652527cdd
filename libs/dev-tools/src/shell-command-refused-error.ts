import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Why a shell command was refused before it ran. */
export const SHELL_REFUSAL_REASONS = {
  EMPTY: 'empty',
  TOO_LONG: 'too_long',
  NEWLINE: 'newline',
  CONTROL_CHARACTER: 'control_character',
  INVISIBLE_CHARACTER: 'invisible_character',
  ANSI_C_NEWLINE: 'ansi_c_newline',
  UNTERMINATED: 'unterminated',
  TOO_DEEP: 'too_deep',
  UNCERTAIN: 'uncertain',
} as const;
/** One reason for refusing a shell command. */
export type ShellRefusalReason = (typeof SHELL_REFUSAL_REASONS)[keyof typeof SHELL_REFUSAL_REASONS];

/**
 * A shell command that cannot be shown faithfully to an approver (hidden line breaks, unbalanced
 * quotes, wrappers nested too deep) and is therefore refused before anything runs.
 */
export class ShellCommandRefusedError extends TalonError {
  constructor(reason: ShellRefusalReason, explanation: string) {
    super(
      ERROR_CODES.POLICY_DENIED,
      `Shell command refused (${reason}): ${explanation}. ${
        reason === SHELL_REFUSAL_REASONS.UNCERTAIN
          ? 'Run the program directly, without that wrapper option.'
          : 'Put one command on one line, with balanced quotes.'
      }`,
      {
        details: { reason },
      },
    );
  }
}
