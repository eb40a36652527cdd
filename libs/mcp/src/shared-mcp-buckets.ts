import type { NatsConnection } from '@nats-io/transport-node';
import {
  McpToolSnapshotRecordSchema,
  SHARED_STATE_BUCKETS,
  SharedMcpServerRecordSchema,
  type McpToolSnapshotRecord,
  type SharedMcpServerRecord,
} from '@talon/contracts';
import { JetStreamRecordBucket, type RecordBucket } from '@talon/shared-state';

/** The shared MCP buckets one service opened. */
export interface SharedMcpBuckets {
  /** `talon_mcp_servers`. */
  definitions: RecordBucket<SharedMcpServerRecord>;
  /** `talon_mcp_tool_snapshots`, when asked for. */
  snapshots?: RecordBucket<McpToolSnapshotRecord>;
  close(): Promise<void>;
}

/**
 * Opens the shared MCP definitions (and, for the stdio runners and the orchestrator, the tool snapshots),
 * created with Talon's settings when missing. A bucket that exists with other settings fails here with
 * `STATE_BUCKET_MISMATCH`, so the service stops at start instead of losing definitions later.
 */
export async function openSharedMcpBuckets(
  connection: NatsConnection,
  options: { snapshots: boolean; onInvalid?: (bucket: string, key: string, reason: string) => void },
): Promise<SharedMcpBuckets> {
  const definitions = await JetStreamRecordBucket.open({
    connection,
    bucket: SHARED_STATE_BUCKETS.mcpServers,
    schema: SharedMcpServerRecordSchema,
    onInvalid: (key, reason) => options.onInvalid?.(SHARED_STATE_BUCKETS.mcpServers, key, reason),
  });
  const snapshots = options.snapshots
    ? await JetStreamRecordBucket.open({
        connection,
        bucket: SHARED_STATE_BUCKETS.mcpToolSnapshots,
        schema: McpToolSnapshotRecordSchema,
        onInvalid: (key, reason) => options.onInvalid?.(SHARED_STATE_BUCKETS.mcpToolSnapshots, key, reason),
      }).catch(async (error: unknown) => {
        await definitions.close();
        throw error;
      })
    : undefined;
  return {
    definitions,
    ...(snapshots ? { snapshots } : {}),
    close: async () => {
      await definitions.close();
      await snapshots?.close();
    },
  };
}
