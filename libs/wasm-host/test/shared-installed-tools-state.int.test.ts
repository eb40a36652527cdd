import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { SHARED_STATE_BUCKETS } from '@talon/contracts';
import { JetStreamArtifactBucket, JetStreamRecordBucket, sha256Hex } from '@talon/shared-state';
import { startNatsTestServer, type NatsTestServer } from '@talon/testing';
import { InstalledToolRecordSchema, SharedInstalledToolsState } from '../src/index.js';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

describe('SharedInstalledToolsState artifacts', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let cacheDir: string;

  beforeAll(async () => {
    nats = await startNatsTestServer();
    connection = await nats.connect('wasm-runner');
    cacheDir = mkdtempSync(join(tmpdir(), 'talon-artifact-cache-'));
  }, 30_000);

  afterAll(async () => {
    await connection?.close();
    await nats?.stop();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  async function openState(over: NatsConnection): Promise<SharedInstalledToolsState> {
    const records = await JetStreamRecordBucket.open({
      connection: over,
      bucket: SHARED_STATE_BUCKETS.wasmTools,
      schema: InstalledToolRecordSchema,
    });
    const artifacts = await JetStreamArtifactBucket.open(over, SHARED_STATE_BUCKETS.wasmArtifacts);
    return SharedInstalledToolsState.open({ records, artifacts, cacheDir });
  }

  it('uploads an artifact and keeps the local copy; a failed upload leaves no copy behind', async () => {
    const state = await openState(connection);
    const bytes = new Uint8Array(700_000).map((_, index) => (index * 7) % 253);
    const sha = sha256Hex(bytes);
    await state.putArtifact(sha, bytes);
    expect(sha256Hex(await readFile(join(cacheDir, `${sha}.wasm`)))).toBe(sha);
    const reader = await JetStreamArtifactBucket.open(connection, SHARED_STATE_BUCKETS.wasmArtifacts);
    expect(sha256Hex(await reader.get(sha))).toBe(sha);

    // The upload fails (its connection is gone) while the copy is written: the copy is taken back.
    const doomed = await nats.connect('wasm-runner');
    const failing = await openState(doomed);
    await doomed.close();
    const other = new Uint8Array(300_000).map((_, index) => (index * 11) % 241);
    const otherSha = sha256Hex(other);
    await expect(failing.putArtifact(otherSha, other)).rejects.toThrow();
    expect(await exists(join(cacheDir, `${otherSha}.wasm`))).toBe(false);
    expect(await exists(join(cacheDir, `${sha}.wasm`))).toBe(true);
  }, 30_000);
});
