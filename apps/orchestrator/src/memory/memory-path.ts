import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

const MAX_PATH_LENGTH = 512;

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) < 0x20) return true;
  return false;
}

/** Normalises a memory path (`notes/today.md`): forward slashes, no empty, `.` or `..` segments. */
export function normalizeMemoryPath(raw: string): string {
  const path = raw.replace(/\\/g, '/').replace(/^\/+/, '').replace(/\/+$/, '');
  const segments = path.split('/');
  if (
    !path ||
    path.length > MAX_PATH_LENGTH ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..') ||
    hasControlCharacter(path)
  ) {
    throw new TalonError(
      ERROR_CODES.SCHEMA_VIOLATION,
      `"${raw.slice(0, 80)}" is not a memory path: use names like notes/today.md (no "..", at most ${MAX_PATH_LENGTH} characters).`,
      {
        details: { path: raw.slice(0, 200) },
      },
    );
  }
  return path;
}
