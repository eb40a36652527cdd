import {
  createEchoTool,
  createHttpTool,
  createJsonTool,
  createTimeTool,
  createWebFetchTool,
} from '@talon/builtin-tools';
import { ToolRegistry, type Tool } from '@talon/tool-runtime';
import type { ToolWorkerConfig } from './tool-worker-config.js';

/** The orchestrator-domain built-ins a tool-worker runs, configured once. */
export function createBuiltinToolRegistry(config: ToolWorkerConfig): ToolRegistry {
  const registry = new ToolRegistry();
  const network = { allowlist: config.ssrfAllowlist, maxResponseBytes: config.httpMaxResponseBytes };
  const tools = [
    createEchoTool(),
    createTimeTool(),
    createJsonTool(),
    createHttpTool(network),
    createWebFetchTool(network),
  ];
  // Each tool's params type is narrower than the registry's generic one; validation makes that safe.
  for (const tool of tools) registry.register(tool as unknown as Tool);
  return registry;
}
