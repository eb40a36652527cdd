import { getSha256Backend } from '@nats-io/obj';
import { MAX_OBJECT_CHUNK_BYTES, objectChunkBytes, useNativeObjectDigests } from './object-store-transfer.js';

describe('object store transfer settings', () => {
  it('chunks at half of max_payload, at most 512 KiB and at least 1 KiB', () => {
    expect(objectChunkBytes(1024 * 1024)).toBe(MAX_OBJECT_CHUNK_BYTES);
    expect(objectChunkBytes(8 * 1024 * 1024)).toBe(MAX_OBJECT_CHUNK_BYTES);
    expect(objectChunkBytes(256 * 1024)).toBe(128 * 1024);
    expect(objectChunkBytes(1000)).toBe(1024);
    expect(objectChunkBytes(undefined)).toBe(MAX_OBJECT_CHUNK_BYTES);
  });

  it('switches nats.js to node:crypto for object digests', () => {
    useNativeObjectDigests();
    expect(getSha256Backend()).toBe('native');
    useNativeObjectDigests();
    expect(getSha256Backend()).toBe('native');
  });
});
