/**
 * Artifacts every replica shares, content-addressed: each is stored under the sha256 (hex) of its bytes and
 * checked against it on every read.
 */
export interface ArtifactBucket {
  /** Stores bytes under their sha256. @throws ArtifactIntegrityError when `sha256` is not theirs */
  put(sha256: string, bytes: Uint8Array): Promise<void>;
  /** The bytes stored under `sha256`. @throws ArtifactMissingError, ArtifactIntegrityError */
  get(sha256: string): Promise<Uint8Array>;
  /** Deletes an artifact (a no-op when there is none). */
  delete(sha256: string): Promise<void>;
}
