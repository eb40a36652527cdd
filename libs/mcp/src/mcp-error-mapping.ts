import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { TalonError } from '@talon/errors';
import { McpAuthorizationRequiredError } from './errors/mcp-authorization-required-error.js';
import { McpServerUnavailableError } from './errors/mcp-server-unavailable-error.js';
import { McpTimeoutError } from './errors/mcp-timeout-error.js';
import { McpToolFailedError } from './errors/mcp-tool-failed-error.js';

interface CallErrorContext {
  server: string;
  tool: string;
  timeoutMs: number;
  stderr: string[];
}

/** Maps whatever the SDK threw during `tools/call` to a typed Talon error. */
export function toMcpCallError(error: unknown, context: CallErrorContext): TalonError {
  if (TalonError.isInstance(error)) return error;
  const where = `MCP tool "${context.tool}" on server "${context.server}"`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new McpTimeoutError(
      `${where} did not answer within ${context.timeoutMs} ms; the request was cancelled. Retry later or raise call_timeout_ms.`,
      {
        retryable: true,
        details: { server: context.server, tool: context.tool, timeoutMs: context.timeoutMs },
        cause: error,
      },
    );
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    return new McpServerUnavailableError(
      `${where} failed: the server connection closed during the call. It is restarted automatically; retry shortly.`,
      {
        retryable: true,
        details: { server: context.server, tool: context.tool, stderr: context.stderr.slice(-10) },
        cause: error,
      },
    );
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new McpToolFailedError(`${where} was cancelled before it answered.`, {
      details: { server: context.server, tool: context.tool },
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new McpToolFailedError(`${where} failed: ${message}`, {
    details: { server: context.server, tool: context.tool },
    cause: error,
  });
}

/** Maps a failed connect (spawn error, initialize timeout, HTTP error, auth) to a typed Talon error. */
export function toMcpConnectError(
  error: unknown,
  context: { server: string; stderr: string[]; authorizationUrl?: string },
): TalonError {
  if (TalonError.isInstance(error)) return error;
  if (error instanceof UnauthorizedError) {
    return new McpAuthorizationRequiredError(
      `MCP server "${context.server}" needs an OAuth authorization: open the authorization URL, then finish with the returned code.`,
      {
        details: {
          server: context.server,
          ...(context.authorizationUrl ? { authorizationUrl: context.authorizationUrl } : {}),
        },
        cause: error,
      },
    );
  }
  const status = httpStatusOf(error);
  if (status === 401 || status === 403) {
    return new McpServerUnavailableError(
      `MCP server "${context.server}" refused Talon's credentials (HTTP ${status}): check the bearer secret it names (secrets.set) or its OAuth authorization.`,
      { details: { server: context.server, httpStatus: status }, cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  const tail = context.stderr.slice(-5).join(' | ');
  return new McpServerUnavailableError(
    `MCP server "${context.server}" could not be started: ${message}${tail ? ` (stderr: ${tail})` : ''}. Check its command or URL in the server definition.`,
    { retryable: true, details: { server: context.server, stderr: context.stderr.slice(-10) }, cause: error },
  );
}

/** The HTTP status the SDK's remote transports put on their errors (`StreamableHTTPError`, `SseError`). */
function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof Error) || !/^(Streamable HTTP|SSE) error/.test(error.message)) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? code : undefined;
}
