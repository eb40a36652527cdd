import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A `skill_read_file` path resolves outside the skill's folder (`..`, an absolute path, a symlink out). */
export class SkillPathEscapeError extends TalonError {
  constructor(skill: string, path: string) {
    super(
      ERROR_CODES.PATH_OUTSIDE_SKILL,
      `"${path}" is outside the folder of skill "${skill}"; only files listed by skill_load can be read.`,
      { details: { skill, path } },
    );
  }
}

/** A skill file that is not UTF-8 text (binary files are not read for the model). */
export class SkillFileNotTextError extends TalonError {
  constructor(skill: string, path: string) {
    super(
      ERROR_CODES.UNSUPPORTED_MEDIA_TYPE,
      `"${path}" of skill "${skill}" is not UTF-8 text; only text files (references, scripts, templates) can be read.`,
      { details: { skill, path } },
    );
  }
}
