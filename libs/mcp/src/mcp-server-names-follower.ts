import type { SharedMcpServerRecord } from '@talon/contracts';
import type { RecordBucket } from '@talon/shared-state';
import type { ToolLogger } from '@talon/tool-runtime';
import type { McpServerDefinition } from './mcp-server-config.js';
import { effectiveMcpServerNames } from './shared-mcp-definitions.js';

/** Receives the new names whenever the set of configured servers changes. */
export type McpServerNamesListener = (names: readonly string[]) => void;

/**
 * The names of every MCP server a deployment configures, for services that only need to know a server
 * exists (the skill-service gates `requires.mcp` on them): the file definitions plus the shared ones
 * (`mcp.add`, KV `talon_mcp_servers`), merged as every worker merges them (files win a name). Listeners
 * hear only real changes of the set: a definition replaced under the same name changes nothing here.
 */
export class McpServerNamesFollower {
  private current: readonly string[];
  private readonly listeners = new Set<McpServerNamesListener>();
  private stop: (() => void) | undefined;

  constructor(
    private readonly files: readonly McpServerDefinition[],
    private readonly definitions: RecordBucket<SharedMcpServerRecord>,
    private readonly log: ToolLogger = () => undefined,
  ) {
    this.current = this.compute();
    this.stop = definitions.onChange(() => this.recompute());
  }

  /** The configured server names, sorted. */
  names(): readonly string[] {
    return this.current;
  }

  /** Subscribes to changes of the set; returns the way to stop. */
  onChange(listener: McpServerNamesListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops following the bucket (the bucket itself is its opener's to close). */
  close(): void {
    this.stop?.();
    this.stop = undefined;
    this.listeners.clear();
  }

  private recompute(): void {
    const next = this.compute();
    if (next.join('\n') === this.current.join('\n')) return;
    this.current = next;
    for (const listener of this.listeners) listener(next);
  }

  private compute(): string[] {
    return effectiveMcpServerNames(this.files, this.definitions.entries(), (server, reason) =>
      this.log('warn', 'shared MCP server not counted', { server, reason }),
    );
  }
}
