import { createHash } from 'node:crypto';
import { lstat, open, realpath } from 'node:fs/promises';
import { basename, dirname, relative, isAbsolute, sep } from 'node:path';
import {
  FieldProblem,
  readMetadata,
  readParameters,
  readRequirements,
  readTriggers,
  REQUIREMENT_BLOCKS,
} from './front-matter-fields.js';
import { readFrontMatter, UnsupportedFrontMatter } from './front-matter-yaml.js';
import type { ParsedSkill } from './parsed-skill.js';
import { guardPattern, type GuardedPattern } from './regex-guard.js';
import { detectDialects } from './skill-dialects.js';
import { readDeclaredTools, readTemplateField } from './skill-tool-declarations.js';
import { skillNameProblem } from './skill-name-rules.js';
import { reject, type SkillParseResult } from './skill-rejection.js';
import { MAX_KEYWORDS, MAX_PATTERNS, MAX_TAGS, normaliseTerms, stringList } from './skill-terms.js';

/**
 * Largest SKILL.md read, in bytes: a guard against memory exhaustion, not a style rule. What reaches the
 * prompt is capped by tokens (the selector's budget), never by refusing a large file.
 */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;
/** Longest description used (Agent Skills spec); a longer one is cut to this for the index, with a warning. */
export const MAX_DESCRIPTION_LENGTH = 1024;

/** Where a SKILL.md text came from. */
export interface SkillTextOrigin {
  /** Path of the SKILL.md (used in messages and summaries). */
  path: string;
  /** The skill folder; defaults to the folder of `path`. */
  dir?: string;
  /**
   * The folder's name: a declared name that differs is loaded with a warning, one that breaks the naming rules
   * falls back to it. Defaults to the basename of `dir`; null when there is no folder yet (installs).
   */
  folderName?: string | null;
  /** sha256 of the bytes; computed from the text when absent. */
  sha256?: string;
}

/**
 * Top-level fields Talon reads. Anything else is kept in `metadata` (when `metadata` has no such key) with a
 * warning, as the Agent Skills client guide asks: unknown fields never refuse a skill.
 */
const KNOWN_FIELDS = new Set([
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
  'version',
  'activation',
  'requires',
  'keywords',
  'tags',
  'tools',
  'parameters',
  'triggers',
  ...REQUIREMENT_BLOCKS,
]);

/**
 * Parses the text of a SKILL.md in any supported dialect into a {@link ParsedSkill}, or refuses it with a typed
 * reason. Lenient as the Agent Skills client guide recommends: cosmetic problems (a name that differs from its
 * folder, unknown or differently-typed fields, a long description, an unsafe activation pattern, YAML with an
 * unquoted `: ` in a value) are warnings and the skill loads; only a file that cannot be read as a skill is
 * refused (no or non-YAML front matter, YAML that does not parse even after the quoting fallback, no usable
 * name, no description, an empty body). Pure: reads nothing from disk.
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
      `SKILL.md has ${byteLength} bytes; files over ${MAX_SKILL_FILE_BYTES} are not read. Move detail into references/.`,
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

  const warnings: string[] = [];
  let data: Record<string, unknown>;
  let content: string;
  try {
    const parsed = readFrontMatter(text);
    if (typeof parsed.data !== 'object' || parsed.data === null || Array.isArray(parsed.data))
      return fail('bad_yaml', 'the front matter must be a YAML mapping.');
    data = parsed.data as Record<string, unknown>;
    content = parsed.content;
    warnings.push(...parsed.repairs);
  } catch (error) {
    if (error instanceof UnsupportedFrontMatter)
      return fail('unsupported_front_matter', 'only YAML front matter is read.');
    return fail('bad_yaml', `the front matter is not valid YAML: ${firstSentence(error)}`);
  }

  const body = content.trim();
  if (body.length === 0)
    return fail('empty_body', 'the SKILL.md body is empty; write the instructions below the front matter.');

  const named = resolveName(data['name'], folderName, warnings);
  if (!named.ok) return fail('invalid_name', named.message);
  const name = named.name;

  const rawDescription = data['description'];
  let description =
    typeof rawDescription === 'string' || typeof rawDescription === 'number'
      ? String(rawDescription).trim()
      : '';
  if (description.length === 0)
    return fail(
      'missing_description',
      'a description is required: say what the skill does and when to use it.',
    );
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    warnings.push(
      `the description has ${description.length} characters; the index uses the first ${MAX_DESCRIPTION_LENGTH}`,
    );
    description = `${[...description].slice(0, MAX_DESCRIPTION_LENGTH - 1).join('')}…`;
  }

  const metadata = { ...readMetadata(data['metadata'], warnings) };
  const keep = (key: string, value: unknown, why: string) => {
    warnings.push(`${why}; kept in metadata.${key}`);
    if (!(key in metadata)) metadata[key] = value;
  };
  for (const key of Object.keys(data))
    if (!KNOWN_FIELDS.has(key)) keep(key, data[key], `unknown field "${key}"`);

  const activationRaw = data['activation'];
  let activation: Record<string, unknown> = {};
  if (typeof activationRaw === 'object' && activationRaw !== null && !Array.isArray(activationRaw))
    activation = activationRaw as Record<string, unknown>;
  else if (activationRaw !== undefined && activationRaw !== null)
    keep('activation', activationRaw, 'activation is not a mapping');

  const patterns: GuardedPattern[] = [];
  const patternSources = asArray(activation['patterns']).filter((item): item is string => {
    if (typeof item === 'string') return true;
    warnings.push(`activation pattern ${JSON.stringify(item)} is not a string; dropped`);
    return false;
  });
  if (patternSources.length > MAX_PATTERNS)
    warnings.push(`patterns capped at ${MAX_PATTERNS}; ${patternSources.length - MAX_PATTERNS} dropped`);
  for (const source of patternSources.slice(0, MAX_PATTERNS)) {
    const guarded = guardPattern(source);
    if (guarded.ok) patterns.push(guarded.pattern);
    else
      warnings.push(`pattern /${source}/ dropped (${guarded.problem.reason}): ${guarded.problem.message}`);
  }
  let maxTokens = activation['max_context_tokens'] ?? activation['maxContextTokens'];
  if (
    maxTokens !== undefined &&
    (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
  ) {
    warnings.push('activation.max_context_tokens is not a positive integer; ignored');
    maxTokens = undefined;
  }

  const triggers = readTriggers(data['triggers']);
  if (triggers.phrases.length > 0)
    warnings.push(`triggers read as activation phrases: ${triggers.phrases.join('; ')}`);
  if (triggers.unknown.length > 0) keep('triggers', triggers.unknown, 'triggers not understood');

  let parameters: ParsedSkill['parameters'] = [];
  try {
    parameters = readParameters(data['parameters'], warnings);
  } catch (error) {
    if (!(error instanceof FieldProblem)) throw error;
    keep('parameters', data['parameters'], `parameters ignored (${error.message})`);
  }

  const preApprovedTools = stringList(data['allowed-tools']);
  const declaredTools = readDeclaredTools(data['tools'], warnings);
  const allowedTools = [...new Set([...preApprovedTools, ...declaredTools.map((tool) => tool.name)])];
  const template = readTemplateField(data['template'], warnings);
  const version = data['version'] ?? metadata['version'];
  const skill: ParsedSkill = {
    name,
    version: version === undefined || version === null ? '0.0.0' : String(version),
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
        [...asArray(activation['keywords']), ...asArray(data['keywords']), ...triggers.phrases],
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
    parameters,
    triggers: triggers.triggers,
    body,
    dialects: detectDialects(data, metadata),
    path,
    dir,
    sha256: origin.sha256 ?? createHash('sha256').update(rawText, 'utf8').digest('hex'),
    warnings,
  };
  return { ok: true, skill };
}

/**
 * The name a skill is known by: the declared one when it follows the naming rules (a different folder name is
 * only a warning); else the folder name when that one does; else none.
 */
function resolveName(
  declaredRaw: unknown,
  folderName: string | null | undefined,
  warnings: string[],
): { ok: true; name: string } | { ok: false; message: string } {
  const declared =
    declaredRaw === undefined || declaredRaw === null ? undefined : String(declaredRaw).trim();
  const folderProblem = folderName ? skillNameProblem(folderName) : 'there is no folder name';
  if (declared !== undefined && declared !== '') {
    const problem = skillNameProblem(declared);
    if (!problem) {
      if (folderName && folderName !== declared)
        warnings.push(`the skill is named "${declared}" but its folder is "${folderName}"; loaded as "${declared}"`);
      return { ok: true, name: declared };
    }
    if (folderName && !folderProblem) {
      warnings.push(`invalid skill name "${declared}" (${problem}); the folder name "${folderName}" is used`);
      return { ok: true, name: folderName };
    }
    return {
      ok: false,
      message: `invalid skill name "${declared}": ${problem}, and the folder name cannot stand in (${folderProblem}).`,
    };
  }
  if (folderName && !folderProblem) {
    warnings.push('no name declared; the folder name is used');
    return { ok: true, name: folderName };
  }
  return {
    ok: false,
    message: `no skill name is declared and the folder name cannot stand in (${folderProblem}).`,
  };
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
 * {@link MAX_SKILL_FILE_BYTES} (checked before reading) and unreadable files. Never throws for a bad file.
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

function firstSentence(error: unknown): string {
  return String((error as Error)?.message ?? error)
    .split('\n')[0]!
    .slice(0, 300);
}
