import type { TalonClient } from '@talon/client';
import type { ToolDefinition } from '@talon/contracts';
import { serveTalonMcpOverStdio, talonMcpToolResult, type TalonMcpServerOptions } from '@talon/mcp';
import { connectTalonApiFromCli, type TalonApiConnection } from '../talon-api-connection.js';

/** How often the catalog version is checked to send `tools/list_changed`. */
const CATALOG_POLL_MS = 2_000;
/** Time a call may take beyond the tool's own timeout (dispatch, output safety). */
const CALL_MARGIN_MS = 2_000;

/**
 * `talon mcp serve`: Talon's live catalog as an MCP server on stdin/stdout, for any MCP client that spawns
 * a command. It talks to a running orchestrator over NATS (`tools.list`, `tools.call`), so calls pass the
 * same policy and output safety as every other; nothing but MCP is written to stdout (notes go to stderr).
 */
export async function mcpServeCommand(note: (line: string) => void): Promise<number> {
  let api: TalonApiConnection;
  try {
    api = await connectTalonApiFromCli('talon-mcp-serve');
  } catch (error) {
    note((error as Error).message);
    return 1;
  }
  const { connection, url } = api;
  const options = natsCatalogOptions(api.client);
  const server = await serveTalonMcpOverStdio(options.server);
  note(`talon mcp serve: serving the catalog of the orchestrator behind ${url} over stdio`);
  await new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  options.stop();
  await server.close();
  await connection.close();
  return 0;
}

/** Catalog and calls over the orchestrator's API, with a poll of the catalog version for change notices. */
function natsCatalogOptions(client: TalonClient): { server: TalonMcpServerOptions; stop(): void } {
  let cached: { version: number; tools: ToolDefinition[] } | undefined;
  let sessionId: Promise<string> | undefined;
  const listeners = new Set<() => void>();
  const list = async () => {
    const reply = await client.tools.list({}, { timeoutMs: 5_000 });
    const changed = cached !== undefined && cached.version !== reply.version;
    cached = { version: reply.version, tools: reply.tools.map((tool) => tool.definition) };
    if (changed) for (const listener of listeners) listener();
    return cached.tools;
  };
  const poll = setInterval(() => void list().catch(() => undefined), CATALOG_POLL_MS);
  poll.unref();
  return {
    server: {
      catalog: {
        list,
        onChange: (listener) => {
          listeners.add(listener);
          return () => listeners.delete(listener);
        },
      },
      call: async (tool, args) => {
        const timeoutMs =
          (cached?.tools.find((definition) => definition.name === tool)?.timeoutMs ?? 30_000) +
          CALL_MARGIN_MS;
        // The client is an agent: its calls pass the session policy (APPROVAL_REQUIRED carries the approval id).
        sessionId ??= client.sessions
          .create({ title: 'mcp stdio client' }, { timeoutMs: 5_000 })
          .then((session) => session.id);
        const reply = await client.tools.call(
          { tool, params: args, sessionId: await sessionId, policy: 'agent' },
          { timeoutMs },
        );
        return talonMcpToolResult(reply);
      },
    },
    stop: () => clearInterval(poll),
  };
}
