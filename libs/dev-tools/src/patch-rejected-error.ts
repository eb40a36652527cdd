import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** Why a patch was refused. Nothing was written in any case. */
export const PATCH_REJECTION_REASONS = {
  MALFORMED: 'malformed',
  NO_FILES: 'no_files',
  HUNK_MISMATCH: 'hunk_mismatch',
  FILE_EXISTS: 'file_exists',
  FILE_MISSING: 'file_missing',
  NOT_A_TEXT_FILE: 'not_a_text_file',
} as const;
/** One reason for refusing a patch. */
export type PatchRejectionReason = (typeof PATCH_REJECTION_REASONS)[keyof typeof PATCH_REJECTION_REASONS];

/** Where a rejection happened: the file and, for a hunk mismatch, the 1-based hunk and its header. */
export interface PatchRejectionLocation {
  file?: string;
  hunk?: number;
  header?: string;
}

/** A patch that cannot be applied as a whole. No file was changed. */
export class PatchRejectedError extends TalonError {
  constructor(reason: PatchRejectionReason, explanation: string, location: PatchRejectionLocation = {}) {
    const where = [
      location.file,
      location.hunk === undefined ? undefined : `hunk ${location.hunk} ${location.header ?? ''}`.trim(),
    ]
      .filter(Boolean)
      .join(', ');
    super(
      ERROR_CODES.TOOL_FAILED,
      `Patch rejected${where ? ` at ${where}` : ''}: ${explanation}. No file was changed; read the file again and rebuild the patch.`,
      { details: { reason, ...location } },
    );
  }
}
