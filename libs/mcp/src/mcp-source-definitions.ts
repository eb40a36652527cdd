import { readFile } from 'node:fs/promises';
import type { McpTransportType } from '@talon/contracts';
import { McpConfigError } from './errors/mcp-config-error.js';
import type { ConfigVariables } from './mcp-config-variables.js';
import { loadMcpServerRegistry, mergeMcpServerDefinitions } from './mcp-registry-loader.js';
import { parseMcpServerConfig, type McpServerDefinition } from './mcp-server-config.js';

/** Where a worker finds its MCP server definitions. */
export interface McpSourceDefinitionsOptions {
  /** The registry directory (`registry/mcp-servers`); skipped when unset. */
  registryDir?: string;
  /** A user config file: a JSON list of server definitions (same shape as registry files); optional. */
  userConfigFile?: string;
  variables: ConfigVariables;
  /** Only servers over these transports are kept (stdio for the wasm-runner, remote for tool-workers). */
  transports: readonly McpTransportType[];
}

/**
 * Registry definitions overlaid by the user config (same name replaces), filtered by transport. A broken
 * file fails here with one {@link McpConfigError} naming it, so a bad config stops the service at start.
 */
export async function loadMcpSourceDefinitions(
  options: McpSourceDefinitionsOptions,
): Promise<McpServerDefinition[]> {
  const registry = options.registryDir
    ? await loadMcpServerRegistry(options.registryDir, { variables: options.variables })
    : [];
  const user = options.userConfigFile ? await readUserConfig(options.userConfigFile, options.variables) : [];
  return mergeMcpServerDefinitions(registry, user).filter((definition) =>
    options.transports.includes(definition.transport.type),
  );
}

async function readUserConfig(file: string, variables: ConfigVariables): Promise<McpServerDefinition[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new McpConfigError(
      `MCP user config ${file} cannot be read as JSON: ${(error as Error).message}. Fix or remove the file.`,
      { details: { file }, cause: error },
    );
  }
  if (!Array.isArray(raw)) {
    throw new McpConfigError(`MCP user config ${file} must be a JSON list of server definitions.`, {
      details: { file },
    });
  }
  return raw.map((entry, index) =>
    parseMcpServerConfig(entry, { variables, source: `${file} entry ${index}` }),
  );
}
