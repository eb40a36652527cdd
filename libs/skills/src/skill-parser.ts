import { createHash } from 'node:crypto';
import { lstat, open, realpath } from 'node:fs/promises';
import { basename, dirname, relative, isAbsolute, sep } from 'node:path';
import matter from 'gray-matter';
import {
  FieldProblem,
  readMetadata,
  readParameters,
  readRequirements,
  readTriggers,
} from './front-matter-fields.js';
import type { ParsedSkill } from './parsed-skill.js';
import { guardPattern, type GuardedPattern } from './regex-guard.js';
import { detectDialects } from './skill-dialects.js';
import { readDeclaredTools, readTemplateField } from './skill-tool-declarations.js';
import { skillNameProblem } from './skill-name-rules.js';
import { reject, type SkillParseResult } from './skill-rejection.js';
import { MAX_KEYWORDS, MAX_PATTERNS, MAX_TAGS, normaliseTerms, stringList } from './skill-terms.js';

/** Largest SKILL.md accepted, in bytes. */
export const MAX_SKILL_FILE_BYTES = 64 * 1024;
/** Longest description accepted (Agent Skills spec). */
export const MAX_DESCRIPTION_LENGTH = 1024;

/** Where a SKILL.md text came from. */
export interface SkillTextOrigin {
  /** Path of the SKILL.md (used in messages and summaries). */
  path: string;
  /** The skill folder; defaults to the folder of `path`. */
  dir?: string;
  /** The folder's name, which a declared name must equal; defaults to the basename of `dir`. Pass null to skip the check. */
  folderName?: string | null;
  /** sha256 of the bytes; computed from the text when absent. */
  sha256?: string;
}

const refuseEngine = {
  parse: () => {
    throw new UnsupportedFrontMatter();
  },
};
class UnsupportedFrontMatter extends Error {}

/** Only YAML front matter is read; gray-matter's JavaScript engine (which evals) is replaced by a refusal. */
const MATTER_OPTIONS = {
  language: 'yaml',
  engines: {
    javascript: refuseEngine,
    js: refuseEngine,
    json: refuseEngine,
    coffee: refuseEngine,
    toml: refuseEngine,
  },
};

/**
 * Parses the text of a SKILL.md in any supported dialect into a {@link ParsedSkill}, or refuses it with
 * a typed reason. Pure: reads nothing from disk.
 */
export function parseSkillText(rawText: string, origin: SkillTextOrigin): SkillParseResult<ParsedSkill> {
  const path = origin.path;
  const dir = origin.dir ?? dirname(path);
  const folderName = origin.folderName === undefined ? basename(dir) : origin.folderName;
  const fail = (reason: Parameters<typeof reject>[0], message: string) =>
    reject(reason, message, path, folderName ?? undefined);
  const byteLength = Buffer.byteLength(rawText, 'utf8');
  if (byteLength > MAX_SKILL_FILE_BYTES)
    return fail(
      'too_large',
      `SKILL.md has ${byteLength} bytes; the limit is ${MAX_SKILL_FILE_BYTES}. Move detail into references/.`,
    );
  const text = rawText.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  if (!firstLine.startsWith('---'))
    return fail('missing_front_matter', 'SKILL.md must start with a "---" YAML front-matter block.');
  if (firstLine.trim() !== '---')
    return fail(
      'unsupported_front_matter',
      `front matter "${firstLine.trim()}" is not plain YAML; only "---" YAML front matter is read.`,
    );
  if (!/\n---[ \t]*(?:\n|$)/.test(text.slice(3)))
    return fail('bad_yaml', 'the front-matter block is not closed by a "---" line.');

  let data: Record<string, unknown>;
  let content: string;
  try {
    const parsed = matter(text, MATTER_OPTIONS as unknown as Parameters<typeof matter>[1]);
    data = parsed.data as Record<string, unknown>;
    content = parsed.content;
  } catch (error) {
    if (error instanceof UnsupportedFrontMatter)
      return fail('unsupported_front_matter', 'only YAML front matter is read.');
    return fail('bad_yaml', `the front matter is not valid YAML: ${firstSentence(error)}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return fail('bad_yaml', 'the front matter must be a YAML mapping.');

  const body = content.trim();
  if (body.length === 0)
    return fail('empty_body', 'the SKILL.md body is empty; write the instructions below the front matter.');

  const warnings: string[] = [];
  const declaredName = data['name'] === undefined || data['name'] === null ? undefined : String(data['name']);
  const name = declaredName ?? folderName ?? '';
  const nameProblem = skillNameProblem(name);
  if (nameProblem) return fail('invalid_name', `invalid skill name "${name}": ${nameProblem}.`);
  if (declaredName === undefined) warnings.push('no name declared; the folder name is used');
  if (folderName !== null && folderName !== undefined && name !== folderName) {
    return fail(
      'name_mismatch',
      `the skill is named "${name}" but its folder is "${folderName}"; rename one so they match.`,
    );
  }
  const description = typeof data['description'] === 'string' ? data['description'].trim() : '';
  if (description.length === 0)
    return fail(
      'missing_description',
      'a description is required: say what the skill does and when to use it.',
    );
  if (description.length > MAX_DESCRIPTION_LENGTH)
    return fail(
      'description_too_long',
      `the description has ${description.length} characters (at most ${MAX_DESCRIPTION_LENGTH}).`,
    );

  try {
    const metadata = readMetadata(data['metadata']);
    const activationRaw = data['activation'];
    const activation =
      typeof activationRaw === 'object' && activationRaw !== null && !Array.isArray(activationRaw)
        ? (activationRaw as Record<string, unknown>)
        : {};
    if (activationRaw !== undefined && activation !== activationRaw)
      throw new FieldProblem('activation must be a mapping');

    const patterns: GuardedPattern[] = [];
    const patternSources = stringListStrict(activation['patterns'], 'activation.patterns');
    if (patternSources.length > MAX_PATTERNS)
      warnings.push(`patterns capped at ${MAX_PATTERNS}; ${patternSources.length - MAX_PATTERNS} dropped`);
    for (const source of patternSources.slice(0, MAX_PATTERNS)) {
      const guarded = guardPattern(source);
      if (!guarded.ok)
        return fail(guarded.problem.reason, `pattern /${source}/ refused: ${guarded.problem.message}.`);
      patterns.push(guarded.pattern);
    }
    const maxTokens = activation['max_context_tokens'] ?? activation['maxContextTokens'];
    if (
      maxTokens !== undefined &&
      (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
    ) {
      throw new FieldProblem('activation.max_context_tokens must be a positive integer');
    }
    const preApprovedTools = stringList(data['allowed-tools']);
    const declaredTools = readDeclaredTools(data['tools'], warnings);
    const allowedTools = [...new Set([...preApprovedTools, ...declaredTools.map((tool) => tool.name)])];
    const template = readTemplateField(data['template'], warnings);
    const skill: ParsedSkill = {
      name,
      version: data['version'] === undefined ? '0.0.0' : String(data['version']),
      description,
      ...(typeof data['license'] === 'string' ? { license: data['license'] } : {}),
      ...(typeof data['compatibility'] === 'string' ? { compatibility: data['compatibility'] } : {}),
      metadata,
      allowedTools,
      declaredTools,
      preApprovedTools,
      ...(template ? { template } : {}),
      activation: {
        keywords: normaliseTerms(
          [...asArray(activation['keywords']), ...asArray(data['keywords'])],
          MAX_KEYWORDS,
          'keyword',
          warnings,
        ),
        excludeKeywords: normaliseTerms(
          activation['exclude_keywords'] ?? activation['excludeKeywords'],
          MAX_KEYWORDS,
          'exclude keyword',
          warnings,
        ),
        patterns,
        tags: normaliseTerms(
          [...asArray(activation['tags']), ...asArray(data['tags'])],
          MAX_TAGS,
          'tag',
          warnings,
        ),
        ...(typeof maxTokens === 'number' ? { maxContextTokens: maxTokens } : {}),
      },
      requires: readRequirements(data, metadata),
      parameters: readParameters(data['parameters'], warnings),
      triggers: readTriggers(data['triggers']),
      body,
      dialects: detectDialects(data, metadata),
      path,
      dir,
      sha256: origin.sha256 ?? createHash('sha256').update(rawText, 'utf8').digest('hex'),
      warnings,
    };
    return { ok: true, skill };
  } catch (error) {
    if (error instanceof FieldProblem) return fail('invalid_field', error.message);
    throw error;
  }
}

/** Options of {@link readSkillFile}. */
export interface ReadSkillFileOptions {
  /** The skills directory the file must stay inside (after resolving symlinks). */
  skillsRoot: string;
  /** Passed to {@link parseSkillText}; defaults to the folder's name. */
  folderName?: string | null;
}

/**
 * Reads and parses one SKILL.md from disk: refuses files that resolve outside `skillsRoot`, files over
 * 64 KiB (checked before reading) and unreadable files. Never throws for a bad file.
 */
export async function readSkillFile(
  path: string,
  options: ReadSkillFileOptions,
): Promise<SkillParseResult<ParsedSkill>> {
  const folderName = options.folderName === undefined ? basename(dirname(path)) : options.folderName;
  try {
    const root = await realpath(options.skillsRoot);
    const real = await realpath(path);
    if (!isInside(root, real) || !isInside(root, await realpath(dirname(path)))) {
      return reject(
        'symlink_escape',
        `SKILL.md resolves to ${real}, outside the skills directory ${root}; skills may not link out of their directory.`,
        path,
        folderName ?? undefined,
      );
    }
    const info = await lstat(real);
    if (!info.isFile())
      return reject('unreadable', 'SKILL.md is not a regular file.', path, folderName ?? undefined);
    if (info.size > MAX_SKILL_FILE_BYTES) {
      return reject(
        'too_large',
        `SKILL.md has ${info.size} bytes; the limit is ${MAX_SKILL_FILE_BYTES}. Move detail into references/.`,
        path,
        folderName ?? undefined,
      );
    }
    const handle = await open(real, 'r');
    let bytes: Buffer;
    try {
      bytes = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
      bytes = bytes.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
    if (bytes.length > MAX_SKILL_FILE_BYTES)
      return reject(
        'too_large',
        `SKILL.md grew past ${MAX_SKILL_FILE_BYTES} bytes.`,
        path,
        folderName ?? undefined,
      );
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    return parseSkillText(bytes.toString('utf8'), { path, dir: dirname(path), folderName, sha256 });
  } catch (error) {
    return reject(
      'unreadable',
      `SKILL.md could not be read: ${firstSentence(error)}`,
      path,
      folderName ?? undefined,
    );
  }
}

/** True when `child` is `root` or below it. */
export function isInside(root: string, child: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value];
}

function stringListStrict(value: unknown, label: string): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  if (list.some((item) => typeof item !== 'string'))
    throw new FieldProblem(`${label} must be a list of strings`);
  return list as string[];
}

function firstSentence(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .slice(0, 300);
}
