import { TalonError } from '@talon/errors';
import type { Tool, ToolRegistry } from '@talon/tool-runtime';

/** Told about each MCP tool the registry refused (a protected or taken name, a bad definition). */
export type McpRegistryRefusal = (name: string, error: unknown) => void;

/**
 * Keeps a worker's {@link ToolRegistry} equal to an MCP manager's adapted tools: new tools are registered,
 * changed ones replaced, vanished ones removed. A refused tool (e.g. named like a protected built-in) is
 * reported through `onRefused` and skipped, never thrown: one bad server must not take the worker down.
 * Returns the function to pass as the manager's `onToolsChanged`.
 */
export function syncMcpToolsIntoRegistry(
  registry: ToolRegistry,
  onRefused: McpRegistryRefusal,
): (tools: readonly Tool[]) => void {
  const owned = new Map<string, Tool>();
  return (tools) => {
    const next = new Map(tools.map((tool) => [tool.definition.name, tool]));
    for (const name of [...owned.keys()]) {
      if (next.has(name)) continue;
      owned.delete(name);
      registry.unregister(name);
    }
    for (const [name, tool] of next) {
      if (owned.get(name) === tool) continue;
      try {
        registry.register(tool, { replace: owned.has(name) });
        owned.set(name, tool);
      } catch (error) {
        if (!TalonError.isInstance(error)) throw error;
        onRefused(name, error);
      }
    }
  };
}
