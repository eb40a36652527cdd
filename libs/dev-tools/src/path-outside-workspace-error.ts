import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Why a path was refused. */
export const PATH_REFUSAL_REASONS = {
  NOT_A_STRING: 'not_a_string',
  EMPTY: 'empty',
  NUL_BYTE: 'nul_byte',
  CONTROL_CHARACTER: 'control_character',
  TOO_LONG: 'too_long',
  BACKSLASH: 'backslash',
  WINDOWS_DRIVE: 'windows_drive',
  HOME_EXPANSION: 'home_expansion',
  PARENT_TRAVERSAL: 'parent_traversal',
  ABSOLUTE_OUTSIDE: 'absolute_outside',
  SYMLINK_ESCAPE: 'symlink_escape',
  DANGLING_SYMLINK: 'dangling_symlink',
  SYMLINK_WRITE: 'symlink_write',
  IS_ROOT: 'is_root',
} as const;
/** One reason for refusing a path. */
export type PathRefusalReason = (typeof PATH_REFUSAL_REASONS)[keyof typeof PATH_REFUSAL_REASONS];

/** A path given to a dev tool resolves outside the workspace root (or uses a trick to try). */
export class PathOutsideWorkspaceError extends TalonError {
  constructor(path: string, reason: PathRefusalReason, cause?: unknown) {
    super(
      ERROR_CODES.PATH_OUTSIDE_WORKSPACE,
      `Path ${JSON.stringify(path.slice(0, 200))} is refused (${reason}); use a relative path that stays inside the workspace.`,
      { details: { path: path.slice(0, 1024), reason }, cause },
    );
  }
}
