import { ERROR_CODES } from '@talon/contracts';
import { TalonError, type TalonErrorOptions } from '@talon/errors';

/** OAuth discovery for a remote MCP server failed: no usable protected-resource or authorization-server metadata. */
export class McpOAuthDiscoveryError extends TalonError {
  constructor(message: string, options: TalonErrorOptions = {}) {
    super(ERROR_CODES.UNAVAILABLE, message, options);
  }
}
