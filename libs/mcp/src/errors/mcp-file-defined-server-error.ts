import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** `mcp.add` or `mcp.remove` named a server a deployment file defines: files are changed in the files. */
export class McpFileDefinedServerError extends TalonError {
  constructor(server: string, operation: 'add' | 'remove') {
    super(
      ERROR_CODES.NAME_CONFLICT,
      operation === 'add'
        ? `MCP server "${server}" is defined in a config file (registry or TALON_MCP_CONFIG), which wins over mcp.add; pick another name or change the file.`
        : `MCP server "${server}" is defined in a config file, not with mcp.add; remove it from the file (registry or TALON_MCP_CONFIG) and restart.`,
      { details: { server, source: 'file' } },
    );
  }
}
