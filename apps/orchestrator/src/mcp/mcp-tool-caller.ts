import type { ToolsCallReply } from '@talon/contracts';
import type { CatalogEntry, ToolCatalog } from '@talon/tool-runtime';
import type { DispatchRequest, ToolDispatcher } from '../tools/tool-dispatcher.js';
import type { McpControlClient } from './mcp-control-client.js';
import { McpToolNotFoundError } from './mcp-tool-not-found-error.js';

/** How long a first call waits for a just-started server's tools to reach the catalog. */
const CATALOG_WAIT_MS = 5_000;

/**
 * `mcp_call` / `mcp.call`: finds the MCP tool named `server.tool` in the live catalog and runs it through
 * the dispatcher, so it gets the same validation, policy, output safety and audit as a direct call. A
 * server whose tools were never listed is started first and its tools awaited in the catalog.
 */
export class McpToolCaller {
  constructor(
    private readonly catalog: ToolCatalog,
    private readonly dispatcher: ToolDispatcher,
    private readonly control: McpControlClient,
  ) {}

  async call(
    displayName: string,
    args: Record<string, unknown>,
    request: Omit<DispatchRequest, 'tool' | 'params'>,
  ): Promise<ToolsCallReply> {
    const entry = this.find(displayName) ?? (await this.startAndFind(displayName));
    return this.dispatcher.call({ ...request, tool: entry.definition.name, params: args });
  }

  private find(displayName: string): CatalogEntry | undefined {
    return this.catalog
      .list()
      .find((entry) => entry.definition.source === 'mcp' && entry.definition.displayName === displayName);
  }

  private async startAndFind(displayName: string): Promise<CatalogEntry> {
    const dot = displayName.indexOf('.');
    const server = displayName.slice(0, dot);
    const view = await this.control.start(server);
    const tool = displayName.slice(dot + 1);
    if (!view.tools.includes(tool)) throw new McpToolNotFoundError(displayName, view.tools);
    const deadline = Date.now() + CATALOG_WAIT_MS;
    for (;;) {
      const entry = this.find(displayName);
      if (entry) return entry;
      if (Date.now() > deadline) throw new McpToolNotFoundError(displayName, view.tools);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, 100);
        const unlisten = this.catalog.onChange(done);
        function done() {
          clearTimeout(timer);
          unlisten();
          resolve();
        }
      });
    }
  }
}
