import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** A query named a server this instance does not run. */
export class McpQueryUnknownServerError extends TalonError {
  constructor(server: string) {
    super(ERROR_CODES.NOT_FOUND, `No MCP server named "${server}" runs here.`, { details: { server } });
  }
}
