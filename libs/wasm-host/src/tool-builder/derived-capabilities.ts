import type { ToolEffect } from '@talon/contracts';
import type { CapabilitiesFile, HttpAllowEntry } from '../capabilities.js';
import { hostMatches } from '../http-allowlist.js';

/** What a generated source asks of the host, read from its text. */
export interface SourceNeeds {
  /** Host functions it imports from `talon:tool/host`. */
  imports: string[];
  /** URLs written in the source (up to the first `${`). */
  urls: string[];
  /** Secret names passed as literals to `secretExists`. */
  secrets: string[];
  /** Paths passed as literals to `workspaceRead`. */
  workspacePaths: string[];
  /** Aliases passed as literals to `toolInvoke`. */
  aliases: string[];
}

/** The capabilities a build grants, and why a request was refused. */
export interface DerivedCapabilities {
  needs: SourceNeeds;
  /** The narrowest capabilities inside the requested ones that cover the needs. */
  capabilities: CapabilitiesFile;
  /** Needs the requested capabilities do not cover; non-empty means the build is refused. */
  refused: string[];
}

const IMPORT_EFFECT: Record<string, ToolEffect> = {
  httpRequest: 'network',
  secretExists: 'use_secret',
  workspaceRead: 'read_filesystem',
  toolInvoke: 'dispatch_capability',
};

function literalArguments(source: string, fn: string): string[] {
  return [...source.matchAll(new RegExp(`\\b${fn}\\s*\\(\\s*(['"\`])([^'"\`$]+)\\1`, 'g'))].map((m) => m[2]!);
}

/** Reads what a source asks of the host: its host imports and the literal URLs, secrets, paths and aliases. */
export function readSourceNeeds(source: string): SourceNeeds {
  const imports = new Set<string>();
  for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]talon:tool\/host@[^'"]+['"]/g))
    for (const part of match[1]!.split(','))
      if (part.trim())
        imports.add(
          part
            .trim()
            .split(/\s+as\s+/)[0]!
            .trim(),
        );
  const urls = new Set<string>();
  for (const match of source.matchAll(/https?:\/\/[^\s'"`)\\]+/g)) {
    const text = match[0].split('${')[0]!;
    try {
      urls.add(new URL(text).href);
    } catch {
      // Not a URL after all (e.g. only a scheme); nothing to derive.
    }
  }
  return {
    imports: [...imports].sort(),
    urls: [...urls].sort(),
    secrets: [...new Set(literalArguments(source, 'secretExists'))].sort(),
    workspacePaths: [...new Set(literalArguments(source, 'workspaceRead'))].sort(),
    aliases: [...new Set(literalArguments(source, 'toolInvoke'))].sort(),
  };
}

function coveringEntries(allowlist: readonly HttpAllowEntry[], url: URL): HttpAllowEntry[] {
  return allowlist.filter(
    (entry) =>
      hostMatches(entry.host, url) &&
      (entry.path_prefix === '/' || `${url.pathname}/`.startsWith(entry.path_prefix.replace(/\/?$/, '/'))),
  );
}

/**
 * Derives the capabilities a source needs and checks them against the requested ones: every literal URL must fall
 * inside a requested allowlist entry, every named secret, workspace path and alias must be requested. The result
 * keeps only the requested entries the source uses (all of a kind when the source uses the import with no literal,
 * e.g. a URL built from params), the credentials of the kept hosts, and the effects of the imports it uses.
 */
export function deriveCapabilities(
  source: string,
  requested: CapabilitiesFile = { effects: [] },
): DerivedCapabilities {
  const needs = readSourceNeeds(source);
  const refused: string[] = [];
  const uses = (name: string) => needs.imports.includes(name);
  const result: CapabilitiesFile = { effects: [] };
  const effects = new Set<ToolEffect>();

  if (uses('httpRequest')) {
    const allowlist = requested.http?.allowlist ?? [];
    const kept = new Set<HttpAllowEntry>();
    for (const text of needs.urls) {
      const covering = coveringEntries(allowlist, new URL(text));
      if (covering.length === 0)
        refused.push(`the source calls ${text}, which the requested http allowlist does not cover`);
      covering.forEach((entry) => kept.add(entry));
    }
    const entries = needs.urls.length === 0 ? allowlist : allowlist.filter((entry) => kept.has(entry));
    if (allowlist.length === 0)
      refused.push('the source sends HTTP requests, but no http allowlist was requested');
    const credentials = (requested.http?.credentials ?? []).filter((credential) =>
      credential.host_patterns.some((pattern) =>
        entries.some((entry) =>
          hostMatches(pattern, new URL(`https://${entry.host.replace(/^\*\./, 'any.')}`)),
        ),
      ),
    );
    result.http = {
      ...requested.http,
      allowlist: entries,
      ...(credentials.length > 0 ? { credentials } : {}),
    };
    if (credentials.length === 0) delete result.http.credentials;
    effects.add('network');
  }

  const secrets = new Set<string>(
    (result.http?.credentials ?? []).map((credential) => credential.secret_name),
  );
  for (const name of needs.secrets) {
    if (!(requested.secrets ?? []).includes(name))
      refused.push(`the source reads secret ${name}, which was not requested`);
    secrets.add(name);
  }
  if (uses('secretExists') && needs.secrets.length === 0)
    (requested.secrets ?? []).forEach((name) => secrets.add(name));
  if (secrets.size > 0) {
    result.secrets = [...secrets].sort();
    effects.add('use_secret');
  }

  if (uses('workspaceRead')) {
    const prefixes = requested.workspace?.read_prefixes ?? [];
    for (const path of needs.workspacePaths)
      if (!prefixes.some((prefix) => path === prefix || path.startsWith(prefix.replace(/\/?$/, '/'))))
        refused.push(`the source reads workspace file ${path}, outside the requested prefixes`);
    if (prefixes.length === 0)
      refused.push('the source reads workspace files, but no workspace prefixes were requested');
    result.workspace = { ...requested.workspace, read_prefixes: prefixes };
    effects.add('read_filesystem');
  }

  if (uses('toolInvoke')) {
    const aliases = requested.tool_aliases ?? {};
    for (const alias of needs.aliases)
      if (!(alias in aliases))
        refused.push(`the source invokes tool alias ${alias}, which was not requested`);
    const used =
      needs.aliases.length === 0 ? Object.keys(aliases) : needs.aliases.filter((alias) => alias in aliases);
    result.tool_aliases = Object.fromEntries(used.map((alias) => [alias, aliases[alias]!]));
    effects.add('dispatch_capability');
  }

  for (const effect of requested.effects)
    if (!Object.values(IMPORT_EFFECT).includes(effect)) effects.add(effect);
  result.effects = [...effects].sort();
  if (requested.limits) result.limits = { ...requested.limits };
  if (requested.rate_limit) result.rate_limit = { ...requested.rate_limit };
  return { needs, capabilities: result, refused };
}
