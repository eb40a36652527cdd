import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import {
  ERROR_CODES,
  SkillRegistryEntrySchema,
  type SkillInstallRequest,
  type SkillInstallResult,
  type SkillRegistryEntry,
  type SkillRemoveResult,
} from '@talon/contracts';
import { SkillIntegrityError } from './skill-integrity-error.js';
import { SkillNameConflictError } from './skill-name-conflict-error.js';
import { isValidSkillName } from './skill-name-rules.js';
import { MAX_SKILL_FILE_BYTES, isInside, parseSkillText } from './skill-parser.js';
import { SkillRejectedError } from './skill-rejected-error.js';
import { SkillSourceError } from './skill-source-error.js';

/** Default time allowed for a download. */
export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

/** Options of the installer. */
export interface SkillInstallerOptions {
  /** `SKILLS_INSTALLED_DIR`; created when missing. */
  installedDir: string;
  /** Folder of `<name>.json` registry entries (e.g. `registry/skills`). Needed for registry installs. */
  registryDir?: string;
  /** Largest download accepted, bytes. Default 64 KiB (the SKILL.md limit). */
  maxBytes?: number;
  /** Default 10 s. */
  fetchTimeoutMs?: number;
  /** Called before a URL is fetched; throw to refuse it (plug the SSRF guard in here). */
  checkUrl?: (url: URL) => void | Promise<void>;
  /**
   * The fetch downloads go through. Default the global `fetch`, which resolves the name again after
   * `checkUrl`: plug in the SSRF-guarded fetch of `@talon/safety` (`createGuardedFetch`) so the
   * connection goes to the address that was checked.
   */
  fetch?: (url: URL, init: RequestInit) => Promise<Response>;
}

interface Fetched {
  bytes: Buffer;
  origin: string;
  expectedSha256?: string;
  expectedName?: string;
}

/**
 * Installs skills into the installed directory, as Installed: from a registry entry, an http(s) URL or a
 * local path. The sha256 is checked when known, the SKILL.md must parse, and the folder appears atomically
 * (written to a dot-folder, then renamed into place).
 */
export async function installSkill(
  request: SkillInstallRequest,
  options: SkillInstallerOptions,
): Promise<SkillInstallResult> {
  const fetched = await fetchSource(request.source, options);
  const actual = createHash('sha256').update(fetched.bytes).digest('hex');
  if (fetched.expectedSha256 && fetched.expectedSha256.toLowerCase() !== actual) {
    throw new SkillIntegrityError(
      `sha256 of ${fetched.origin} is ${actual}, expected ${fetched.expectedSha256}; the file changed or the entry is wrong. Do not install it.`,
      {
        expected: fetched.expectedSha256,
        actual,
        source: fetched.origin,
      },
    );
  }
  const parsed = parseSkillText(fetched.bytes.toString('utf8'), {
    path: fetched.origin,
    dir: options.installedDir,
    folderName: null,
    sha256: actual,
  });
  if (!parsed.ok) throw new SkillRejectedError(parsed.rejection);
  const name = parsed.skill.name;
  if (fetched.expectedName && fetched.expectedName !== name) {
    throw new SkillIntegrityError(
      `the registry entry is "${fetched.expectedName}" but the SKILL.md is named "${name}".`,
      { expected: fetched.expectedName, actual: name, source: fetched.origin },
    );
  }
  const root = resolve(options.installedDir);
  const target = join(root, name);
  if (!isValidSkillName(name) || !isInside(root, target) || target === root)
    throw new SkillNameConflictError(name, `"${name}" is not a valid skill folder name.`);
  const exists = await pathExists(target);
  if (exists && !request.replace)
    throw new SkillNameConflictError(
      name,
      `skill "${name}" is already installed; pass replace: true to replace it.`,
    );

  await mkdir(root, { recursive: true });
  const staging = join(root, `.staging-${name}-${randomBytes(6).toString('hex')}`);
  await mkdir(staging);
  try {
    await writeFile(join(staging, 'SKILL.md'), fetched.bytes);
    await writeFile(
      join(staging, '.install.json'),
      JSON.stringify(
        { source: fetched.origin, sha256: actual, installedAt: new Date().toISOString() },
        null,
        2,
      ),
    );
    if (exists) {
      const old = join(root, `.old-${name}-${randomBytes(6).toString('hex')}`);
      await rename(target, old);
      await rename(staging, target);
      await rm(old, { recursive: true, force: true });
    } else {
      await rename(staging, target);
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw new SkillSourceError(ERROR_CODES.INTERNAL, `could not write skill "${name}" into ${root}.`, {
      cause: error,
    });
  }
  return {
    name,
    version: parsed.skill.version,
    path: join(target, 'SKILL.md'),
    sha256: actual,
    trust: 'INSTALLED',
    replaced: exists,
  };
}

/** Removes an installed skill's folder. Only the installed directory is touched; a bad name is refused. */
export async function removeSkill(
  name: string,
  options: Pick<SkillInstallerOptions, 'installedDir'>,
): Promise<SkillRemoveResult> {
  const root = resolve(options.installedDir);
  const target = join(root, name);
  if (!isValidSkillName(name) || !isInside(root, target) || target === root)
    throw new SkillNameConflictError(name, `"${name}" is not a valid skill name.`);
  if (!(await pathExists(target))) return { name, removed: false };
  await rm(target, { recursive: true, force: true });
  return { name, removed: true };
}

/** Reads and validates a registry entry `<registryDir>/<name>.json`. */
export async function readRegistryEntry(registryDir: string, name: string): Promise<SkillRegistryEntry> {
  if (!isValidSkillName(name))
    throw new SkillSourceError(ERROR_CODES.NOT_FOUND, `"${name}" is not a valid skill name.`);
  let raw: string;
  try {
    raw = await readFile(join(registryDir, `${name}.json`), 'utf8');
  } catch (error) {
    throw new SkillSourceError(ERROR_CODES.NOT_FOUND, `no registry entry "${name}" in ${registryDir}.`, {
      cause: error,
    });
  }
  let entry: unknown;
  try {
    entry = JSON.parse(raw);
  } catch (error) {
    throw new SkillSourceError(ERROR_CODES.SCHEMA_VIOLATION, `registry entry "${name}" is not valid JSON.`, {
      cause: error,
    });
  }
  if (!Value.Check(SkillRegistryEntrySchema, entry)) {
    const problems = [...Value.Errors(SkillRegistryEntrySchema, entry)]
      .slice(0, 5)
      .map((e) => `${e.path || '/'} ${e.message}`);
    throw new SkillSourceError(
      ERROR_CODES.SCHEMA_VIOLATION,
      `registry entry "${name}" is malformed: ${problems.join('; ')}.`,
      { details: { problems } },
    );
  }
  return entry;
}

async function fetchSource(
  source: SkillInstallRequest['source'],
  options: SkillInstallerOptions,
): Promise<Fetched> {
  const maxBytes = options.maxBytes ?? MAX_SKILL_FILE_BYTES;
  switch (source.kind) {
    case 'registry': {
      if (!options.registryDir)
        throw new SkillSourceError(ERROR_CODES.NOT_FOUND, 'no registry directory is configured.');
      const entry = await readRegistryEntry(options.registryDir, source.name);
      const inner =
        'url' in entry.source
          ? await fetchUrl(entry.source.url, options, maxBytes)
          : await readPath(resolve(options.registryDir, entry.source.path), maxBytes);
      return { ...inner, expectedSha256: entry.sha256, expectedName: entry.name };
    }
    case 'url':
      return {
        ...(await fetchUrl(source.url, options, maxBytes)),
        ...(source.sha256 ? { expectedSha256: source.sha256 } : {}),
      };
    case 'path':
      return {
        ...(await readPath(resolve(source.path), maxBytes)),
        ...(source.sha256 ? { expectedSha256: source.sha256 } : {}),
      };
  }
}

async function fetchUrl(raw: string, options: SkillInstallerOptions, maxBytes: number): Promise<Fetched> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SkillSourceError(ERROR_CODES.SCHEMA_VIOLATION, `"${raw}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SkillSourceError(
      ERROR_CODES.POLICY_DENIED,
      `only http and https URLs are installed from, not ${url.protocol}`,
    );
  await options.checkUrl?.(url);
  const signal = AbortSignal.timeout(options.fetchTimeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS);
  let response: Response;
  try {
    // Redirects are refused: the checked URL must be the one that is read.
    response = await (options.fetch ?? fetch)(url, { redirect: 'error', signal });
  } catch (error) {
    throw new SkillSourceError(
      ERROR_CODES.TOOL_FAILED,
      `could not download ${url.href}: ${(error as Error).message}`,
      { cause: error, retryable: true },
    );
  }
  if (!response.ok)
    throw new SkillSourceError(
      ERROR_CODES.TOOL_FAILED,
      `download of ${url.href} answered HTTP ${response.status}.`,
      { retryable: response.status >= 500 },
    );
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new SkillSourceError(
      ERROR_CODES.PAYLOAD_TOO_LARGE,
      `${url.href} is ${declared} bytes; at most ${maxBytes} are accepted.`,
    );
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw new SkillSourceError(
        ERROR_CODES.PAYLOAD_TOO_LARGE,
        `${url.href} sent more than ${maxBytes} bytes; refused.`,
      );
    }
    chunks.push(Buffer.from(value));
  }
  return { bytes: Buffer.concat(chunks), origin: url.href };
}

async function readPath(path: string, maxBytes: number): Promise<Fetched> {
  let file = path;
  try {
    if ((await stat(path)).isDirectory()) file = join(path, 'SKILL.md');
    const info = await stat(file);
    if (info.size > maxBytes)
      throw new SkillSourceError(
        ERROR_CODES.PAYLOAD_TOO_LARGE,
        `${file} is ${info.size} bytes; at most ${maxBytes} are accepted.`,
      );
    return { bytes: await readFile(file), origin: file };
  } catch (error) {
    if (error instanceof SkillSourceError) throw error;
    throw new SkillSourceError(ERROR_CODES.NOT_FOUND, `cannot read ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
