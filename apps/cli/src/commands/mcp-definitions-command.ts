import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { McpDefinitionReply, McpViewListReply } from '@talon/contracts';
import { formatTable } from '../text-table.js';
import { withTalonApi } from '../talon-api-connection.js';

/** `talon mcp add|remove|list --help`. */
export const MCP_DEFINITIONS_USAGE = `  pnpm talon mcp list [--json]                 every MCP server: source (file or api), state, tools
  pnpm talon mcp add <definition.json> [--json]  add or replace a server on every replica (mcp.add)
  pnpm talon mcp remove <name> [--json]          remove a server added with mcp add; it stops everywhere`;

/**
 * `talon mcp list|add|remove`: the servers as `mcp.list` reports them, and definitions shared through
 * `mcp.add` / `mcp.remove`. `add` reads one definition (the registry file shape) from a JSON file, or `-`
 * for standard input.
 */
export async function mcpDefinitionsCommand(
  args: readonly string[],
  print: (line: string) => void,
  usage: string,
): Promise<number> {
  const json = args.includes('--json');
  const [action, target] = args.filter((arg) => arg !== '--json');
  if (action !== 'list' && (!target || (action !== 'add' && action !== 'remove'))) {
    print(usage);
    return 2;
  }
  let definition: unknown;
  if (action === 'add') {
    try {
      definition = JSON.parse(
        target === '-' ? readFileSync(0, 'utf8') : await readFile(target as string, 'utf8'),
      );
    } catch (error) {
      print(`cannot read an MCP server definition from ${target}: ${(error as Error).message}`);
      return 2;
    }
  }
  return withTalonApi(print, async (call) => {
    if (action === 'list') {
      const reply = await call<McpViewListReply>('mcp.list', {});
      if (json) print(JSON.stringify(reply, null, 2));
      else
        print(
          reply.servers.length === 0
            ? 'no MCP servers'
            : formatTable([
                ['NAME', 'SOURCE', 'TRANSPORT', 'STATE', 'TOOLS', 'INSTANCES'],
                ...reply.servers.map((server) => [
                  server.name,
                  server.source ?? 'file',
                  server.transport,
                  server.state,
                  String(server.toolCount),
                  String(server.instances.length),
                ]),
              ]),
        );
      return 0;
    }
    const reply =
      action === 'add'
        ? await call<McpDefinitionReply>('mcp.add', { definition })
        : await call<McpDefinitionReply>('mcp.remove', { server: target });
    print(json ? JSON.stringify(reply) : `${reply.name} (${reply.transport}) ${reply.change}`);
    return 0;
  });
}
