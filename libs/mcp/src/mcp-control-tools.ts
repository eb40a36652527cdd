import type { ToolDomain } from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import { createMcpCallTool } from './control-tools/mcp-call-tool.js';
import { createMcpListTool } from './control-tools/mcp-list-tool.js';
import { createMcpStartTool } from './control-tools/mcp-start-tool.js';
import { createMcpStopTool } from './control-tools/mcp-stop-tool.js';
import type { McpManager } from './mcp-manager.js';

/** Options of {@link createMcpControlTools}. */
export interface McpControlToolsOptions {
  /** Where the manager runs: `container` (wasm-runner, stdio servers) or `orchestrator` (tool-workers, remote servers). */
  domain: ToolDomain;
}

/** `mcp_start`, `mcp_stop`, `mcp_list` and `mcp_call` over one manager, to register as built-ins. */
export function createMcpControlTools(manager: McpManager, options: McpControlToolsOptions): Tool[] {
  return [createMcpStartTool, createMcpStopTool, createMcpListTool, createMcpCallTool].map((create) =>
    create(manager, options.domain),
  );
}
