import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Kvm } from '@nats-io/kv';
import { Objm } from '@nats-io/obj';
import type { NatsConnection } from '@nats-io/transport-node';
import { Type } from '@sinclair/typebox';
import { SHARED_STATE_BUCKETS } from '@talon/contracts';
import { startNatsTestServer, waitUntil, type NatsTestServer } from '@talon/testing';
import {
  ArtifactIntegrityError,
  ArtifactMissingError,
  JetStreamArtifactBucket,
  JetStreamRecordBucket,
  StateBucketMismatchError,
  sha256Hex,
  type RecordChange,
} from '../src/index.js';

const Note = Type.Object({ text: Type.String() });

describe('shared state in JetStream, under Talon authorization', () => {
  let nats: NatsTestServer;
  let runnerA: NatsConnection;
  let runnerB: NatsConnection;
  let skills: NatsConnection;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    [runnerA, runnerB, skills] = await Promise.all([
      nats.connect('wasm-runner'),
      nats.connect('wasm-runner'),
      nats.connect('skill-service'),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([runnerA, runnerB, skills].map((connection) => connection?.close()));
    await nats?.stop();
  });

  it('creates a missing bucket with the shared settings; a second replica sees writes live and in its first view', async () => {
    const onInvalid: string[] = [];
    const a = await JetStreamRecordBucket.open({
      connection: runnerA,
      bucket: SHARED_STATE_BUCKETS.wasmTools,
      schema: Note,
      onInvalid: (key, reason) => onInvalid.push(`${key}: ${reason}`),
    });
    const status = await new Kvm(runnerA).open(SHARED_STATE_BUCKETS.wasmTools).then((kv) => kv.status());
    expect(status).toMatchObject({ history: 5, storage: 'file', ttl: 0 });
    await a.put('first', { text: 'one' });
    expect(a.get('first')).toEqual({ text: 'one' }); // an own write is visible at once
    const b = await JetStreamRecordBucket.open({
      connection: runnerB,
      bucket: SHARED_STATE_BUCKETS.wasmTools,
      schema: Note,
      onInvalid: (key, reason) => onInvalid.push(`${key}: ${reason}`),
    });
    expect(b.get('first')).toEqual({ text: 'one' });
    const seen: RecordChange<unknown>[] = [];
    b.onChange((change) => seen.push(change));
    await a.put('second', { text: 'two' });
    await a.delete('first');
    await waitUntil(() => seen.length >= 2, 5_000, 'two changes on the other replica');
    expect(seen.map((change) => `${change.kind} ${change.key}`)).toEqual(['put second', 'delete first']);
    expect([...b.entries().keys()]).toEqual(['second']);

    // Two replicas create the same key at once: exactly one wins.
    const created = await Promise.all([a.create('race', { text: 'a' }), b.create('race', { text: 'b' })]);
    expect(created.filter(Boolean)).toHaveLength(1);

    // A value that fails the schema is never served, and said.
    await new Kvm(runnerA).open(SHARED_STATE_BUCKETS.wasmTools).then((kv) => kv.put('bad', '{"text":3}'));
    await waitUntil(() => onInvalid.length >= 2, 5_000, 'the bad value reported by both replicas');
    expect(a.get('bad')).toBeUndefined();
    expect(onInvalid[0]).toMatch(/^bad: \/text/);
    await Promise.all([a.close(), b.close()]);
  }, 30_000);

  it('refuses a bucket created with a TTL, naming the setting and the fix', async () => {
    await new Kvm(skills).create(SHARED_STATE_BUCKETS.skills, { ttl: 60_000, history: 1 });
    const opening = JetStreamRecordBucket.open({
      connection: skills,
      bucket: SHARED_STATE_BUCKETS.skills,
      schema: Note,
    });
    await expect(opening).rejects.toBeInstanceOf(StateBucketMismatchError);
    await expect(opening).rejects.toMatchObject({
      code: 'STATE_BUCKET_MISMATCH',
      message: expect.stringMatching(/expire after 60000 ms.*delete it so Talon creates it again/),
    });
  }, 15_000);

  it('stores artifacts by sha256 and refuses bytes that do not match their name (INTEGRITY_MISMATCH)', async () => {
    const store = await JetStreamArtifactBucket.open(runnerA, SHARED_STATE_BUCKETS.wasmArtifacts);
    const other = await JetStreamArtifactBucket.open(runnerB, SHARED_STATE_BUCKETS.wasmArtifacts);
    const bytes = new Uint8Array(1_300_000).map((_, index) => index % 251);
    const sha = sha256Hex(bytes);
    await store.put(sha, bytes);
    await store.put(sha, bytes); // an upload of bytes already there is a no-op
    expect(Buffer.from(await other.get(sha)).equals(Buffer.from(bytes))).toBe(true);
    await expect(store.put('0'.repeat(64), bytes)).rejects.toBeInstanceOf(ArtifactIntegrityError);
    // Half-of-max_payload chunks (512 KiB on the default 1 MiB), and the digest nats.js computed is the sha256.
    const raw = await new Objm(runnerA).open(SHARED_STATE_BUCKETS.wasmArtifacts);
    const info = await raw.info(sha);
    expect(info).toMatchObject({
      chunks: 3,
      size: bytes.byteLength,
      options: { max_chunk_size: 512 * 1024 },
    });
    expect(Buffer.from(info!.digest.replace(/^SHA-256=/, ''), 'base64url').toString('hex')).toBe(sha);
    // The refused upload above left nothing under the wrong name.
    await expect(other.get('0'.repeat(64))).rejects.toBeInstanceOf(ArtifactMissingError);
    await expect(store.put('0'.repeat(64), bytes)).rejects.toMatchObject({
      code: 'INTEGRITY_MISMATCH',
      details: { expected: '0'.repeat(64), actual: sha },
    });

    // Someone with write access replaces the object under the same name.
    await raw.putBlob({ name: sha }, new TextEncoder().encode('tampered'));
    await expect(other.get(sha)).rejects.toMatchObject({
      code: 'INTEGRITY_MISMATCH',
      details: { expected: sha, actual: sha256Hex('tampered') },
    });
    await store.delete(sha);
    await expect(other.get(sha)).rejects.toBeInstanceOf(ArtifactMissingError);
  }, 30_000);

  it('keeps every other user out of the buckets', async () => {
    const worker = await nats.connect('tool-worker');
    try {
      await expect(
        JetStreamRecordBucket.open({
          connection: worker,
          bucket: SHARED_STATE_BUCKETS.wasmTools,
          schema: Note,
        }),
      ).rejects.toThrow();
      await expect(
        JetStreamRecordBucket.open({
          connection: skills,
          bucket: SHARED_STATE_BUCKETS.wasmTools,
          schema: Note,
        }),
      ).rejects.toThrow();
    } finally {
      await worker.close();
    }
  }, 30_000);
});
