import { open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ERROR_CODES } from '@talon/contracts';
import { SkillFileNotTextError, SkillPathEscapeError } from './skill-file-errors.js';
import { SkillSourceError } from './skill-source-error.js';

/** Most files `skill_load` lists for one skill. */
export const MAX_LISTED_SKILL_FILES = 200;
/** Largest part of a file `skill_read_file` returns, in bytes (the rest is reported as truncated). */
export const MAX_SKILL_FILE_READ_BYTES = 64 * 1024;
const MAX_DEPTH = 6;

/**
 * The files of a skill folder (relative paths, sorted, SKILL.md and dot-files left out), walking at most six
 * levels without following symlinks, at most {@link MAX_LISTED_SKILL_FILES}.
 */
export async function listSkillFiles(dir: string): Promise<{ files: string[]; truncated: boolean }> {
  const files: string[] = [];
  let truncated = false;
  const walk = async (folder: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith('.')) continue;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (entry.isFile()) {
        const rel = relative(dir, full).split(sep).join('/');
        if (rel === 'SKILL.md') continue;
        if (files.length >= MAX_LISTED_SKILL_FILES) {
          truncated = true;
          return;
        }
        files.push(rel);
      }
    }
  };
  await walk(dir, 0);
  return { files, truncated };
}

/**
 * Reads one text file of a skill folder for the model: the path must stay inside the folder after resolving
 * `..` and symlinks ({@link SkillPathEscapeError}), be a regular file (NOT_FOUND otherwise) and be UTF-8 text
 * without NUL bytes ({@link SkillFileNotTextError}); at most {@link MAX_SKILL_FILE_READ_BYTES} are returned.
 */
export async function readSkillTextFile(
  skill: string,
  dir: string,
  path: string,
  maxBytes = MAX_SKILL_FILE_READ_BYTES,
): Promise<{ path: string; content: string; bytes: number; truncated: boolean }> {
  if (isAbsolute(path) || path.includes('\0')) throw new SkillPathEscapeError(skill, path);
  const root = await realpath(dir);
  const lexical = resolve(root, path);
  if (!inside(root, lexical)) throw new SkillPathEscapeError(skill, path);
  let real: string;
  try {
    real = await realpath(lexical);
  } catch {
    throw new SkillSourceError(ERROR_CODES.NOT_FOUND, `skill "${skill}" has no file "${path}"; see the list skill_load returned.`);
  }
  if (!inside(root, real)) throw new SkillPathEscapeError(skill, path);
  const info = await stat(real);
  if (!info.isFile())
    throw new SkillSourceError(ERROR_CODES.NOT_FOUND, `"${path}" of skill "${skill}" is not a file.`);
  const handle = await open(real, 'r');
  let bytes: Buffer;
  try {
    bytes = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
    bytes = bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  if (bytes.includes(0)) throw new SkillFileNotTextError(skill, path);
  let content: string;
  try {
    // A cut may split a character at the end: decode leniently there, strictly everywhere else.
    const body = info.size > maxBytes ? trimPartialCharacter(bytes) : bytes;
    content = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw new SkillFileNotTextError(skill, path);
  }
  return {
    path: relative(root, real).split(sep).join('/'),
    content,
    bytes: info.size,
    truncated: info.size > maxBytes,
  };
}

function inside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Drops an incomplete UTF-8 sequence at the end of a cut buffer. */
function trimPartialCharacter(bytes: Buffer): Buffer {
  let end = bytes.length;
  let back = 0;
  while (end - back - 1 >= 0 && back < 4 && (bytes[end - back - 1]! & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < need) end -= back + 1;
  }
  return bytes.subarray(0, end);
}
