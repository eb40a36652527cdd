import type { NatsConnection } from '@nats-io/transport-node';
import {
  McpToolSnapshotRecordSchema,
  SHARED_STATE_BUCKETS,
  SharedMcpServerRecordSchema,
  type McpToolSnapshotRecord,
  type SharedMcpServerRecord,
} from '@talon/contracts';
import { JetStreamRecordBucket, type RecordBucket } from '@talon/shared-state';
import type { ToolLogger } from '@talon/tool-runtime';

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
 * `STATE_BUCKET_MISMATCH`, so the service stops at start instead of losing definitions later. `log` hears
 * every record skipped as invalid (a warning) and the failure to open (an error, then thrown).
 */
export async function openSharedMcpBuckets(
  connection: NatsConnection,
  options: { snapshots: boolean; log: ToolLogger },
): Promise<SharedMcpBuckets> {
  return openBuckets(connection, options.snapshots, (bucket, key, reason) =>
    options.log('warn', 'shared MCP record skipped', { bucket, key, reason }),
  ).catch((error: Error & { code?: string }) => {
    options.log('error', error.message, { code: error.code });
    throw error;
  });
}

async function openBuckets(
  connection: NatsConnection,
  withSnapshots: boolean,
  onInvalid: (bucket: string, key: string, reason: string) => void,
): Promise<SharedMcpBuckets> {
  const definitions = await JetStreamRecordBucket.open({
    connection,
    bucket: SHARED_STATE_BUCKETS.mcpServers,
    schema: SharedMcpServerRecordSchema,
    onInvalid: (key, reason) => onInvalid(SHARED_STATE_BUCKETS.mcpServers, key, reason),
  });
  const snapshots = withSnapshots
    ? await JetStreamRecordBucket.open({
        connection,
        bucket: SHARED_STATE_BUCKETS.mcpToolSnapshots,
        schema: McpToolSnapshotRecordSchema,
        onInvalid: (key, reason) => onInvalid(SHARED_STATE_BUCKETS.mcpToolSnapshots, key, reason),
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
