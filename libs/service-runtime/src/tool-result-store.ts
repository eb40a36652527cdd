import { randomUUID } from 'node:crypto';
import { Objm, type ObjectStore } from '@nats-io/obj';
import { nanos, type NatsConnection } from '@nats-io/transport-node';
import { TOOL_RESULT_BUCKET, type ToolResultReference } from '@talon/contracts';
import { objectChunkBytes, useNativeObjectDigests } from '@talon/shared-state';

/** Options of {@link ToolResultStore}. */
export interface ToolResultStoreOptions {
  /** How long an unread result stays. Default {@link DEFAULT_TOOL_RESULT_TTL_MS}. */
  ttlMs?: number;
  /** Most bytes the bucket holds; a result that does not fit is refused. Default {@link DEFAULT_TOOL_RESULT_BUCKET_BYTES}. */
  maxBucketBytes?: number;
}

/** Long enough for any caller still waiting (tool timeouts are minutes at most), short enough to clean up after one that died. */
export const DEFAULT_TOOL_RESULT_TTL_MS = 15 * 60_000;
export const DEFAULT_TOOL_RESULT_BUCKET_BYTES = 1024 ** 3;

/**
 * Tool results too large for one NATS message, kept in the {@link TOOL_RESULT_BUCKET} object store: the
 * worker puts one object per result and replies with its reference; the caller takes it (reads, then
 * deletes). The bucket is created on first use by whichever side gets there first.
 */
export class ToolResultStore {
  private store?: Promise<ObjectStore>;

  constructor(
    private readonly connection: NatsConnection,
    private readonly options: ToolResultStoreOptions = {},
  ) {}

  /** Stores one JSON-encoded output and returns its reference. */
  async put(json: Uint8Array): Promise<ToolResultReference> {
    const store = await this.open();
    const name = randomUUID();
    const chunk = objectChunkBytes(this.connection.info?.max_payload);
    await store.putBlob({ name, options: { max_chunk_size: chunk } }, json);
    return { bucket: TOOL_RESULT_BUCKET, name, bytes: json.byteLength };
  }

  /** Reads a stored output and deletes it; fails when it is gone. */
  async take(reference: ToolResultReference): Promise<Uint8Array> {
    if (reference.bucket !== TOOL_RESULT_BUCKET)
      throw new Error(`not a tool result bucket: ${reference.bucket}`);
    const store = await this.open();
    const bytes = await store.getBlob(reference.name);
    if (!bytes) throw new Error(`no object ${reference.name}`);
    // The caller has it now; the TTL would remove it later, but large objects should not wait for it.
    void store.delete(reference.name).catch(() => undefined);
    return bytes;
  }

  private open(): Promise<ObjectStore> {
    if (this.store) return this.store;
    useNativeObjectDigests();
    this.store = new Objm(this.connection)
      .create(TOOL_RESULT_BUCKET, {
        storage: 'file',
        ttl: nanos(this.options.ttlMs ?? DEFAULT_TOOL_RESULT_TTL_MS),
        max_bytes: this.options.maxBucketBytes ?? DEFAULT_TOOL_RESULT_BUCKET_BYTES,
      })
      .catch((error: unknown) => {
        // JetStream may come back: the next result tries again.
        this.store = undefined;
        throw error;
      });
    return this.store;
  }
}
