import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';

/**
 * A definition sent to `mcp.add` holds what looks like a credential. Shared definitions live in JetStream
 * where every worker reads them, so credentials must be references into the secrets store instead.
 */
export class McpPlaintextSecretError extends TalonError {
  constructor(server: string, field: string, reason: string) {
    super(
      ERROR_CODES.SCHEMA_VIOLATION,
      `MCP server "${server}": ${field} ${reason}. Definitions added with mcp.add are shared with every worker and must not hold credentials: store it with secrets.set and reference it with auth {"type":"bearer","secret":"<name>"} (or use OAuth).`,
      { details: { server, field, violations: [`${field}: ${reason}`] } },
    );
  }
}
