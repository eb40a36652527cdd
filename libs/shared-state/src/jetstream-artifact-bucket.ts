import { Objm, type ObjectStore } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { SHARED_BUCKET_SETTINGS } from '@talon/contracts';
import type { ArtifactBucket } from './artifact-bucket.js';
import { bucketSettingsDifferences } from './bucket-settings-check.js';
import { ArtifactIntegrityError } from './errors/artifact-integrity-error.js';
import { ArtifactMissingError } from './errors/artifact-missing-error.js';
import { StateBucketMismatchError } from './errors/state-bucket-mismatch-error.js';
import { objectChunkBytes, useNativeObjectDigests } from './object-store-transfer.js';
import { sha256Hex } from './sha256-hex.js';

/**
 * An {@link ArtifactBucket} over a JetStream object store: one object per sha256, uploaded once (an object
 * already there with the same digest and size is kept), verified against its name on every read.
 */
export class JetStreamArtifactBucket implements ArtifactBucket {
  private constructor(
    private readonly store: ObjectStore,
    private readonly bucket: string,
    private readonly chunkBytes: number,
  ) {}

  /** @throws StateBucketMismatchError when the store exists with settings Talon cannot use */
  static async open(connection: NatsConnection, bucket: string): Promise<JetStreamArtifactBucket> {
    useNativeObjectDigests();
    const store = await new Objm(connection).create(bucket, { storage: SHARED_BUCKET_SETTINGS.storage });
    const status = await store.status();
    const differences = bucketSettingsDifferences(
      {
        storage: status.storage,
        ttlMs: status.ttl / 1_000_000,
        subjects: status.streamInfo.config.subjects ?? [],
      },
      `$O.${bucket}.C.>`,
    );
    if (differences.length > 0) throw new StateBucketMismatchError(bucket, differences);
    return new JetStreamArtifactBucket(store, bucket, objectChunkBytes(connection.info?.max_payload));
  }

  /**
   * Uploads bytes under their sha256. The check is the digest nats.js computes while it uploads (one pass over
   * the bytes, not two): an object whose digest is not its name is deleted again before the error.
   */
  async put(sha256: string, bytes: Uint8Array): Promise<void> {
    const existing = await this.store.info(sha256);
    const digest = `SHA-256=${Buffer.from(sha256, 'hex').toString('base64url')}`;
    if (
      existing &&
      !existing.deleted &&
      existing.size === bytes.byteLength &&
      sameDigest(existing.digest, digest)
    )
      return;
    const stored = await this.store.putBlob(
      { name: sha256, options: { max_chunk_size: this.chunkBytes } },
      bytes,
    );
    if (!sameDigest(stored.digest, digest)) {
      await this.store.delete(sha256).catch(() => undefined);
      throw new ArtifactIntegrityError(this.bucket, sha256, digestHex(stored.digest));
    }
  }

  async get(sha256: string): Promise<Uint8Array> {
    const bytes = await this.store.getBlob(sha256);
    if (!bytes) throw new ArtifactMissingError(this.bucket, sha256);
    const actual = sha256Hex(bytes);
    if (actual !== sha256) throw new ArtifactIntegrityError(this.bucket, sha256, actual);
    return bytes;
  }

  async delete(sha256: string): Promise<void> {
    const existing = await this.store.info(sha256);
    if (existing && !existing.deleted) await this.store.delete(sha256);
  }
}

/** Object digests are base64url; older writers used padded standard base64. */
function sameDigest(stored: string, expected: string): boolean {
  return digestHex(stored) === digestHex(expected);
}

/** An object digest (`SHA-256=<base64 or base64url>`) as lower-case hex. */
function digestHex(digest: string): string {
  const base64url = digest
    .replace(/^SHA-256=/i, '')
    .replace(/=+$/, '')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
  return Buffer.from(base64url, 'base64url').toString('hex');
}
