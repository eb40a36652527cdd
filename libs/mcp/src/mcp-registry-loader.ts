import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { McpConfigError } from './errors/mcp-config-error.js';
import {
  parseMcpServerConfig,
  type McpServerDefinition,
  type ParseMcpServerConfigOptions,
} from './mcp-server-config.js';

/**
 * Reads every `*.json` file of a registry directory (e.g. `registry/mcp-servers`) in name order.
 * All files are checked before failing, so one error message lists every broken file.
 */
export async function loadMcpServerRegistry(
  directory: string,
  options: Pick<ParseMcpServerConfigOptions, 'variables'> = {},
): Promise<McpServerDefinition[]> {
  let entries: string[];
  try {
    entries = await readdir(directory);
  } catch (error) {
    // A mistyped TALON_MCP_REGISTRY_DIR would otherwise stop the service with a bare ENOENT stack.
    throw new McpConfigError(
      `MCP server registry ${directory} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); point TALON_MCP_REGISTRY_DIR at a directory of *.json server definitions, or unset it.`,
      { details: { directory, problems: [String(error)] }, cause: error },
    );
  }
  const files = entries.filter((file) => file.endsWith('.json')).sort();
  const loaded: { file: string; definition: McpServerDefinition }[] = [];
  const problems: string[] = [];
  for (const file of files) {
    try {
      const raw: unknown = JSON.parse(await readFile(join(directory, file), 'utf8'));
      loaded.push({ file, definition: parseMcpServerConfig(raw, { ...options, source: file }) });
    } catch (error) {
      problems.push(
        error instanceof SyntaxError
          ? `${file}: not valid JSON (${error.message})`
          : (error as Error).message,
      );
    }
  }
  const names = new Map<string, string>();
  for (const { file, definition } of loaded) {
    const earlier = names.get(definition.name);
    if (earlier) problems.push(`${file}: server name "${definition.name}" is already used by ${earlier}`);
    names.set(definition.name, file);
  }
  if (problems.length > 0) {
    throw new McpConfigError(
      `MCP server registry ${directory} has ${problems.length} problem(s): ${problems.join(' | ')}`,
      {
        details: { directory, problems },
      },
    );
  }
  return loaded.map(({ definition }) => definition);
}

/** Registry definitions overlaid by user definitions: a user server with the same name replaces the registry one. */
export function mergeMcpServerDefinitions(
  registry: readonly McpServerDefinition[],
  user: readonly McpServerDefinition[],
): McpServerDefinition[] {
  const byName = new Map(registry.map((definition) => [definition.name, definition]));
  for (const definition of user) byName.set(definition.name, definition);
  return [...byName.values()];
}
