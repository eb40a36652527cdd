import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Why a name could not be used: a built-in owns it, or another tool already took it. */
export type ToolNameConflictReason = 'protected' | 'taken';

/** A tool could not be registered (or removed) because of who owns its name. */
export class ToolNameConflictError extends TalonError {
  declare readonly details: { name: string; reason: ToolNameConflictReason };

  constructor(name: string, reason: ToolNameConflictReason, message?: string) {
    super(
      ERROR_CODES.NAME_CONFLICT,
      message ??
        (reason === 'protected'
          ? `The tool name "${name}" belongs to a built-in tool; give the new tool another name.`
          : `The tool name "${name}" is already registered; unregister it first or choose another name.`),
      { details: { name, reason } },
    );
  }
}
