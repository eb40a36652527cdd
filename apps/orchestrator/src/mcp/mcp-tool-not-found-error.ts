import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** `server.tool` names no usable tool of a running server. */
export class McpToolNotFoundError extends TalonError {
  constructor(displayName: string, known: readonly string[]) {
    super(
      ERROR_CODES.UNKNOWN_TOOL,
      `No usable MCP tool named ${displayName}; the server offers: ${known.join(', ') || 'nothing'}. Run mcp_list to see servers and tools.`,
      { details: { tool: displayName, known: [...known] } },
    );
  }
}
