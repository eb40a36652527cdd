import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/** The server does not offer what was asked (it advertises no `resources` or `prompts` capability). */
export class McpCapabilityMissingError extends TalonError {
  constructor(server: string, capability: 'resources' | 'prompts') {
    super(
      ERROR_CODES.NOT_FOUND,
      `MCP server "${server}" offers no ${capability} (it does not advertise the capability); use its tools instead.`,
      { details: { server, capability } },
    );
  }
}
