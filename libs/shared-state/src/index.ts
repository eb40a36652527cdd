export type { RecordBucket, RecordChange } from './record-bucket.js';
export type { ArtifactBucket } from './artifact-bucket.js';
export {
  JetStreamRecordBucket,
  DEFAULT_INITIAL_VIEW_TIMEOUT_MS,
  type JetStreamRecordBucketOptions,
} from './jetstream-record-bucket.js';
export { JetStreamArtifactBucket } from './jetstream-artifact-bucket.js';
export { bucketSettingsDifferences, type ObservedBucketSettings } from './bucket-settings-check.js';
export { sha256Hex } from './sha256-hex.js';
export { objectChunkBytes, useNativeObjectDigests, MAX_OBJECT_CHUNK_BYTES } from './object-store-transfer.js';
export { StateBucketMismatchError } from './errors/state-bucket-mismatch-error.js';
export { ArtifactIntegrityError } from './errors/artifact-integrity-error.js';
export { ArtifactMissingError } from './errors/artifact-missing-error.js';
