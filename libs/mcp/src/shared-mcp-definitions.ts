import type { McpTransportType, SharedMcpServerRecord } from '@talon/contracts';
import { sha256Hex } from '@talon/shared-state';
import type { ConfigVariables } from './mcp-config-variables.js';
import { parseMcpServerConfig, type McpServerDefinition } from './mcp-server-config.js';

/**
 * Placeholders every replica defines (see standardConfigVariables) with stand-in values: enough to check a
 * definition or learn its name where its paths do not matter (the writer, the skill-service).
 */
export const PLACEHOLDER_CONFIG_VARIABLES: ConfigVariables = {
  NODE: '/node',
  TALON_ROOT: '/root',
  TALON_WORKSPACE: '/workspace',
  TALON_DATA_DIR: '/data',
};

/** Told why a shared definition is not used on this replica. */
export type SharedMcpDefinitionRefusal = (server: string, reason: string) => void;

/**
 * The servers one replica runs: its file definitions plus the shared (`mcp.add`) ones over its transports.
 * Files win a name they both use: the deployment's own files are the operator's last word, and `mcp.add`
 * refuses such a name, so a collision only arises when a file gains a name after it was added through the
 * API (the shared one is then reported and ignored). A shared definition that does not parse here (e.g. an
 * unknown `${NAME}`) is reported and skipped, never fatal: one bad record must not take a worker down.
 */
export function effectiveMcpDefinitions(options: {
  files: readonly McpServerDefinition[];
  shared: ReadonlyMap<string, SharedMcpServerRecord>;
  variables: ConfigVariables;
  transports: readonly McpTransportType[];
  onRefused?: SharedMcpDefinitionRefusal;
}): McpServerDefinition[] {
  const byName = new Map(options.files.map((definition) => [definition.name, definition]));
  const fromFiles = new Set(byName.keys());
  for (const [key, record] of [...options.shared].sort(([a], [b]) => a.localeCompare(b))) {
    if (!options.transports.includes(record.definition.transport.type)) continue;
    if (fromFiles.has(record.definition.name)) {
      options.onRefused?.(key, 'a config file defines a server of this name; the file wins');
      continue;
    }
    if (record.definition.name !== key) {
      options.onRefused?.(key, `the record names server "${record.definition.name}"`);
      continue;
    }
    try {
      const definition = parseMcpServerConfig(record.definition, {
        variables: options.variables,
        source: `shared MCP server ${key}`,
      });
      byName.set(key, { ...definition, source: 'api' });
    } catch (error) {
      options.onRefused?.(key, (error as Error).message);
    }
  }
  return [...byName.values()];
}

/**
 * Names of every server the deployment runs over every transport (files plus shared), by the same merge
 * the workers and runners run, sorted. What `requires.mcp` of a skill is gated against.
 */
export function effectiveMcpServerNames(
  files: readonly McpServerDefinition[],
  shared: ReadonlyMap<string, SharedMcpServerRecord>,
  onRefused?: SharedMcpDefinitionRefusal,
): string[] {
  return effectiveMcpDefinitions({
    files,
    shared,
    variables: PLACEHOLDER_CONFIG_VARIABLES,
    transports: ['stdio', 'streamable-http', 'sse'],
    ...(onRefused ? { onRefused } : {}),
  })
    .map((definition) => definition.name)
    .sort();
}

/** sha256 of a definition as this replica runs it: a tool snapshot listed under another definition is not used. */
export function mcpDefinitionFingerprint(definition: McpServerDefinition): string {
  return sha256Hex(JSON.stringify(definition));
}
