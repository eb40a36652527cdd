import type { Readable } from 'node:stream';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Sandbox, sandboxProfile } from '@talon/sandbox';
import type { StdioTransportConfig } from './mcp-server-config.js';
import type { McpTransportHandle } from './mcp-transport.js';
import type { SandboxProfile } from '@talon/contracts';

/** What a stdio transport needs besides its command: the server's name and sandbox. */
export interface StdioTransportOptions {
  server: string;
  /** The server's profile. Default: nothing beyond the system, no network. */
  profile?: SandboxProfile;
  /** Default: {@link Sandbox.fromEnvironment} (fail closed when bubblewrap cannot run). */
  sandbox?: Sandbox;
}

/**
 * Spawns a stdio server inside the sandbox: bubblewrap with the server's profile, an environment built
 * from nothing plus the definition's `env` (never Talon's own secrets), stderr piped so its last lines can
 * be reported when the server crashes. Throws SandboxUnavailableError when the sandbox cannot start.
 */
export async function createStdioTransport(
  config: StdioTransportConfig,
  options: StdioTransportOptions,
): Promise<McpTransportHandle> {
  const sandbox = options.sandbox ?? Sandbox.fromEnvironment();
  const spawn = await sandbox.prepare({
    what: `MCP server "${options.server}"`,
    profile: options.profile ?? sandboxProfile(),
    argv: [config.command, ...(config.args ?? [])],
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    env: config.env ?? {},
  });
  const transport = new StdioClientTransport({
    command: spawn.file,
    args: spawn.args,
    env: spawn.env,
    stderr: 'pipe',
    cwd: spawn.cwd,
  });
  // The SDK chains its own close handler after this one; the egress proxy (if any) ends with the child.
  transport.onclose = () => void spawn.dispose();
  return {
    transport,
    pid: () => transport.pid ?? undefined,
    stderr: (transport.stderr as Readable | null) ?? undefined,
  };
}
