import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** No running wasm-runner or tool-worker has an MCP server of that name. */
export class McpServerNotFoundError extends TalonError {
  constructor(server: string) {
    super(
      ERROR_CODES.NOT_FOUND,
      `No MCP server named "${server}" is configured in a running wasm-runner or tool-worker; run mcp_list to see the servers.`,
      { details: { server } },
    );
  }
}
