import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A request on `talon.mcp.v1.credentials.*` for a key no configured MCP server references (or a write to a bearer secret). */
export class McpSecretOutOfScopeError extends TalonError {
  constructor(name: string, operation: string) {
    super(
      ERROR_CODES.POLICY_DENIED,
      `"${name}" is not an MCP credential that may be used with ${operation}: only the bearer secrets named by remote MCP server definitions (read-only) and mcp/oauth/<server>/… of OAuth servers are served. Check the server definitions the orchestrator loads (TALON_MCP_CONFIG, TALON_MCP_REGISTRY_DIR).`,
      { details: { name, operation } },
    );
  }
}
