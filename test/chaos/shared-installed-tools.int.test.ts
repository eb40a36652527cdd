import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Objm } from '@nats-io/obj';
import { headers as natsHeaders, type NatsConnection } from '@nats-io/transport-node';
import {
  HEADERS,
  SHARED_STATE_BUCKETS,
  SUBJECTS,
  type Envelope,
  type ToolAnnouncement,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolWithdrawal,
} from '@talon/contracts';
import {
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
} from '@talon/testing';
import {
  builtComponent,
  sha256Of,
  variantOf,
  writeRegistryEntry,
} from '../../apps/wasm-runner/test/support/wasm-test-registry.js';

/** Rounds of install → seen elsewhere → remove → gone elsewhere. */
const ROUNDS = 5;
/** Generous bound on one propagation on a loaded machine; the figures printed are what counts. */
const PROPAGATION_BOUND_MS = 10_000;

/** Which instance currently announces which tools, and since when (ms since the epoch). */
class AnnouncementTracker {
  readonly tools = new Map<string, Map<string, number>>();

  record(announcement: ToolAnnouncement): void {
    const now = Date.now();
    const previous = this.tools.get(announcement.instanceId) ?? new Map<string, number>();
    const next = new Map<string, number>();
    for (const tool of announcement.tools) next.set(tool.name, previous.get(tool.name) ?? now);
    this.tools.set(announcement.instanceId, next);
  }

  withdraw(withdrawal: ToolWithdrawal): void {
    this.tools.delete(withdrawal.instanceId);
  }

  has(instance: string, tool: string): boolean {
    return this.tools.get(instance)?.has(tool) ?? false;
  }

  since(instance: string, tool: string): number | undefined {
    return this.tools.get(instance)?.get(tool);
  }
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;
}

describe('chaos: a WASM tool installed on runner A is callable through runner B', () => {
  let nats: NatsTestServer;
  let bus: NatsConnection;
  let base: string;
  let registryDir: string;
  const tracker = new AnnouncementTracker();
  const runners = new Map<string, ServiceProcess>();

  async function startRunner(id: string): Promise<ServiceProcess> {
    const runner = await startServiceProcess('wasm-runner', {
      NATS_URL: nats.url,
      TALON_INSTANCE_ID: id,
      TALON_STATE_DIR: join(base, id),
      TALON_WORKSPACE_DIR: join(base, 'workspace'),
      TALON_TOOL_REGISTRY_DIR: registryDir,
      TALON_MCP_REGISTRY_DIR: join(base, 'no-mcp'),
    });
    runners.set(id, runner);
    return runner;
  }

  /** A call on the container subject, as the orchestrator's dispatcher sends it; the queue group picks the runner. */
  async function call(tool: string, params: Record<string, unknown>): Promise<Envelope<ToolCallResult>> {
    const request: ToolCallRequest = { callId: `chaos-${Math.random()}`, tool, params, timeoutMs: 20_000 };
    const headers = natsHeaders();
    headers.set(HEADERS.deadline, String(Date.now() + 20_000));
    const reply = await bus.request(SUBJECTS.toolCall('container'), JSON.stringify(request), {
      timeout: 25_000,
      headers,
    });
    return reply.json<Envelope<ToolCallResult>>();
  }

  async function ok(tool: string, params: Record<string, unknown>): Promise<ToolCallResult> {
    const reply = await call(tool, params);
    if (!reply.ok) throw new Error(`${tool} failed: ${JSON.stringify(reply.error)}`);
    return reply.data;
  }

  /** Calls until a success comes from `instance` (the queue group spreads calls), at most `attempts` times. */
  async function callServedBy(
    instance: string,
    tool: string,
    params: Record<string, unknown> = { mode: 'x' },
    attempts = 40,
  ): Promise<ToolCallResult> {
    for (let attempt = 0; attempt < attempts; attempt++) {
      const reply = await call(tool, params);
      if (reply.ok && reply.data.instanceId === instance) return reply.data;
    }
    throw new Error(`no successful ${tool} call served by ${instance} in ${attempts} attempts`);
  }

  beforeAll(async () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'tools-src/build.mjs'), '--quiet'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'apps/wasm-runner'],
      {
        cwd: REPO_ROOT,
        stdio: 'pipe',
      },
    );
    base = await mkdtemp(join(tmpdir(), 'talon-chaos-shared-'));
    registryDir = join(base, 'registry');
    await mkdir(join(base, 'no-mcp'), { recursive: true });
    await mkdir(join(base, 'workspace'), { recursive: true });
    const probe = builtComponent('probe', 'wat');
    const capabilities = { effects: [], limits: { memory_mb: 4, timeout_ms: 2000, max_concurrency: 2 } };
    // Each name gets its own bytes (its own sha256), so every install moves a new artifact between runners.
    for (const name of [
      ...Array.from({ length: ROUNDS }, (_, index) => `probe-r${index + 1}`),
      'contested',
      'tampered',
      'probe-now',
    ]) {
      const artifact = await variantOf(probe, join(base, `${name}.wasm`), name);
      await writeRegistryEntry(registryDir, {
        name,
        artifact,
        sha256: await sha256Of(artifact),
        capabilities,
      });
    }
    nats = await startNatsTestServer();
    bus = await nats.connect('orchestrator');
    bus.subscribe(SUBJECTS.toolAnnounce, {
      callback: (_error, message) => tracker.record(message.json<ToolAnnouncement>()),
    });
    bus.subscribe(SUBJECTS.toolWithdraw, {
      callback: (_error, message) => tracker.withdraw(message.json<ToolWithdrawal>()),
    });
    await Promise.all([startRunner('runner-a'), startRunner('runner-b')]);
    await waitUntil(
      () => tracker.has('runner-a', 'tool_install') && tracker.has('runner-b', 'tool_install'),
      15_000,
      'both runners announced',
    );
  }, 120_000);

  afterAll(async () => {
    await bus?.close();
    await Promise.all([...runners.values()].map((runner) => runner.stop().catch(() => undefined)));
    await nats?.stop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  const other = (instance: string) => (instance === 'runner-a' ? 'runner-b' : 'runner-a');

  it('installs on one runner and the other serves the tool; removes likewise (figures printed)', async () => {
    const installed: number[] = [];
    const installCalls: number[] = [];
    const removed: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const name = `probe-r${round}`;
      const requested = Date.now();
      const install = await ok('tool_install', { name });
      const answered = Date.now();
      const peer = other(install.instanceId!);
      await waitUntil(() => tracker.has(peer, name), PROPAGATION_BOUND_MS, `${name} announced by ${peer}`);
      installed.push(Math.max(0, tracker.since(peer, name)! - answered));
      installCalls.push(answered - requested);
      const served = await callServedBy(peer, name);
      expect(JSON.stringify(served.output)).toContain('"mode":"x"');

      const removeRequested = Date.now();
      const removal = await ok('tool_remove', { name });
      const remover = removal.instanceId!;
      // Measured from the request: the peer often drops the tool before the remover has answered.
      await waitUntil(
        () => !tracker.has(other(remover), name),
        PROPAGATION_BOUND_MS,
        `${name} gone from the peer`,
        10,
      );
      removed.push(Date.now() - removeRequested);
      // Gone everywhere: the call answers UNKNOWN_TOOL whichever runner takes it.
      for (let attempt = 0; attempt < 4; attempt++)
        expect(await call(name, { mode: 'x' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    }
    const figures = {
      scenario: 'install on A, callable through B',
      rounds: ROUNDS,
      install_call_ms: { p50: percentile(installCalls, 0.5), max: Math.max(...installCalls) },
      install_answered_to_callable_elsewhere_ms: {
        p50: percentile(installed, 0.5),
        max: Math.max(...installed),
      },
      remove_requested_to_gone_elsewhere_ms: { p50: percentile(removed, 0.5), max: Math.max(...removed) },
    };
    console.log(JSON.stringify(figures));
  }, 120_000);

  it('serves calls sent the moment the install answers, whichever runner takes them', async () => {
    const install = await ok('tool_install', { name: 'probe-now' });
    // Before the peer has loaded the tool: it catches up with the shared state instead of UNKNOWN_TOOL.
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, index) => call('probe-now', { mode: 'x', index })),
    );
    const elapsed = Date.now() - started;
    for (const reply of replies) expect(reply).toMatchObject({ ok: true });
    const servedBy = new Set(replies.map((reply) => (reply.ok ? reply.data.instanceId : undefined)));
    // The queue group spread twelve calls over both runners (all on one: 1 chance in 2,048).
    expect(servedBy).toEqual(new Set(['runner-a', 'runner-b']));
    await ok('tool_remove', { name: 'probe-now' });
    console.log(
      JSON.stringify({
        scenario: 'calls right after an install',
        installed_on: install.instanceId,
        calls: replies.length,
        all_answered_ms: elapsed,
      }),
    );
  }, 60_000);

  it('lets one of several concurrent installs of a name win; the others get NAME_CONFLICT and both runners serve the winner', async () => {
    const replies = await Promise.all(
      Array.from({ length: 6 }, () => call('tool_install', { name: 'contested' })),
    );
    const winners = replies.filter((reply) => reply.ok);
    expect(winners).toHaveLength(1);
    for (const reply of replies.filter((candidate) => !candidate.ok))
      expect(reply).toMatchObject({ ok: false, error: { code: 'NAME_CONFLICT' } });
    await waitUntil(
      () => tracker.has('runner-a', 'contested') && tracker.has('runner-b', 'contested'),
      PROPAGATION_BOUND_MS,
      'contested on both runners',
    );
    await callServedBy('runner-a', 'contested');
    await callServedBy('runner-b', 'contested');
    const crossRunner = replies.filter(
      (reply) => !reply.ok && /another runner/.test(reply.error.message),
    ).length;
    console.log(
      JSON.stringify({
        scenario: 'concurrent installs',
        calls: 6,
        refused_by_the_shared_record: crossRunner,
      }),
    );
  }, 60_000);

  it('shares one workspace: a file written through one runner is read through the other; racing writes never tear or vanish', async () => {
    // Both runners write (the queue group picks one per call) until each has written at least once.
    const writers = new Set<string>();
    let files = 0;
    while (writers.size < 2 && files < 40) {
      const written = await ok('write_file', { path: `notes/file-${files}.txt`, content: `note ${files}` });
      writers.add(written.instanceId!);
      files++;
    }
    expect(writers.size).toBe(2);
    for (const reader of ['runner-a', 'runner-b'])
      for (let index = 0; index < files; index++) {
        const read = await callServedBy(reader, 'read_file', { path: `notes/file-${index}.txt` });
        expect((read.output as { content: string }).content).toBe(`note ${index}`);
      }

    // Racing writers on both runners replace one file while readers read it: a reader sees one whole version.
    const versions = Array.from(
      { length: 24 },
      (_, index) => `${String(index).padStart(2, '0')}:${'x'.repeat(4096)}`,
    );
    await ok('write_file', { path: 'notes/shared.txt', content: versions[0] });
    const outcomes = await Promise.all([
      ...versions.map((content) => call('write_file', { path: 'notes/shared.txt', content })),
      ...versions.map(() => call('read_file', { path: 'notes/shared.txt' })),
    ]);
    const served = new Set(outcomes.map((outcome) => (outcome.ok ? outcome.data.instanceId : 'failed')));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    for (const outcome of outcomes.slice(versions.length))
      expect(versions).toContain(
        ((outcome as { data: ToolCallResult }).data.output as { content: string }).content,
      );
    const leftovers = (await readdir(join(base, 'workspace', 'notes'))).filter((name) =>
      name.endsWith('.tmp'),
    );
    expect(leftovers).toEqual([]);
    console.log(
      JSON.stringify({
        scenario: 'one workspace, two runners',
        files_across_runners: files,
        racing_calls: outcomes.length,
        served_by: [...served].sort(),
      }),
    );
  }, 60_000);

  it('refuses a tampered artifact with INTEGRITY_MISMATCH on a runner that starts late, which still catches up on the rest', async () => {
    await ok('tool_install', { name: 'tampered' });
    await waitUntil(
      () => tracker.has('runner-a', 'tampered') && tracker.has('runner-b', 'tampered'),
      PROPAGATION_BOUND_MS,
      'tampered on both runners',
    );
    // Someone with write access to the object store replaces the artifact under its sha256.
    const sha = await sha256Of(join(base, 'tampered.wasm'));
    const writer = await nats.connect('wasm-runner');
    try {
      const store = await new Objm(writer).open(SHARED_STATE_BUCKETS.wasmArtifacts);
      await store.putBlob({ name: sha }, await readFile(join(base, 'contested.wasm')));
    } finally {
      await writer.close();
    }

    const late = await startRunner('runner-c');
    const restored = await late.waitForLog((line) => line.msg === 'wasm tools restored');
    expect(restored).toMatchObject({
      restored: ['contested'],
      failed: [{ name: 'tampered', code: 'INTEGRITY_MISMATCH' }],
    });
    await waitUntil(
      () => tracker.has('runner-c', 'contested'),
      PROPAGATION_BOUND_MS,
      'contested on the late runner',
    );
    expect(tracker.has('runner-c', 'tampered')).toBe(false);

    // With A and B gone, C alone serves what was installed before it started, and nothing tampered.
    await Promise.all([runners.get('runner-a')!.stop(), runners.get('runner-b')!.stop()]);
    const served = await ok('contested', { mode: 'x' });
    expect(served.instanceId).toBe('runner-c');
    expect(await call('tampered', { mode: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_TOOL' },
    });
  }, 90_000);
});
