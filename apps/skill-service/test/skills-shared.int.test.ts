import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { SHARED_STATE_BUCKETS, type Envelope, type SkillListResult } from '@talon/contracts';
import {
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
} from '@talon/testing';

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('installed skills shared by several skill-services through JetStream', () => {
  let nats: NatsTestServer;
  let bus: NatsConnection;
  let base: string;
  const services: ServiceProcess[] = [];

  async function startReplica(id: string): Promise<ServiceProcess> {
    await mkdir(join(base, id, 'installed'), { recursive: true });
    const service = await startServiceProcess('skill-service', {
      NATS_URL: nats.url,
      TALON_INSTANCE_ID: id,
      SKILLS_WORKSPACE_DIR: join(base, id, 'workspace'),
      SKILLS_DIR: join(base, id, 'user'),
      SKILLS_INSTALLED_DIR: join(base, id, 'installed'),
      SKILLS_REGISTRY_DIR: join(REPO_ROOT, 'registry', 'skills'),
      SKILLS_WATCH_DEBOUNCE_MS: '50',
    });
    services.push(service);
    return service;
  }

  async function skills<T>(method: string, payload: unknown): Promise<Envelope<T>> {
    return (
      await bus.request(`talon.skills.v1.${method}`, JSON.stringify(payload), { timeout: 10_000 })
    ).json<Envelope<T>>();
  }

  /** Asks the queue group several times: every replica that answers must list the skill (or not). */
  async function everyAnswerLists(name: string, listed: boolean): Promise<boolean> {
    for (let attempt = 0; attempt < 8; attempt++) {
      const reply = await skills<SkillListResult>('list', {});
      if (!reply.ok) return false;
      if (reply.data.skills.some((skill) => skill.name === name) !== listed) return false;
    }
    return true;
  }

  beforeAll(async () => {
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'apps/skill-service'],
      {
        cwd: REPO_ROOT,
        stdio: 'pipe',
      },
    );
    base = await mkdtemp(join(tmpdir(), 'talon-skills-shared-'));
    nats = await startNatsTestServer();
    bus = await nats.connect('orchestrator');
    await Promise.all([startReplica('skills-a'), startReplica('skills-b')]);
  }, 60_000);

  afterAll(async () => {
    await bus?.close();
    await Promise.all(services.map((service) => service.stop().catch(() => undefined)));
    await nats?.stop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('installs on one replica and every replica serves the skill; a late replica catches up; remove is everywhere', async () => {
    const started = Date.now();
    const installed = await skills<{ name: string }>('install', {
      source: { kind: 'registry', name: 'incident-triage' },
    });
    expect(installed).toMatchObject({ ok: true, data: { name: 'incident-triage' } });
    await waitUntil(
      async () =>
        (await exists(join(base, 'skills-a/installed/incident-triage/SKILL.md'))) &&
        (await exists(join(base, 'skills-b/installed/incident-triage/SKILL.md'))),
      10_000,
      'the skill folder on both replicas',
    );
    await waitUntil(() => everyAnswerLists('incident-triage', true), 10_000, 'every replica lists it');
    console.log(
      JSON.stringify({
        scenario: 'skill installed on one replica',
        visible_everywhere_ms: Date.now() - started,
      }),
    );
    const a = await readFile(join(base, 'skills-a/installed/incident-triage/SKILL.md'));
    const b = await readFile(join(base, 'skills-b/installed/incident-triage/SKILL.md'));
    expect(a.equals(b)).toBe(true);

    await startReplica('skills-c');
    expect(await exists(join(base, 'skills-c/installed/incident-triage/SKILL.md'))).toBe(true);

    expect(await skills('remove', { name: 'incident-triage' })).toMatchObject({
      ok: true,
      data: { removed: true },
    });
    await waitUntil(
      async () => {
        const present = await Promise.all(
          ['skills-a', 'skills-b', 'skills-c'].map((id) =>
            exists(join(base, id, 'installed/incident-triage')),
          ),
        );
        return present.every((here) => !here);
      },
      10_000,
      'the skill folder gone from every replica',
    );
    await waitUntil(() => everyAnswerLists('incident-triage', false), 10_000, 'no replica lists it');
  }, 60_000);

  it('refuses a shared record whose text does not match its sha256 (INTEGRITY_MISMATCH), on every replica', async () => {
    const writer = await nats.connect('skill-service');
    try {
      const kv = await new Kvm(writer).open(SHARED_STATE_BUCKETS.skills);
      const text = '---\nname: forged\ndescription: forged skill\n---\nDo something else.\n';
      await kv.put(
        'forged',
        JSON.stringify({
          name: 'forged',
          sha256: createHash('sha256').update('the reviewed text').digest('hex'),
          source: 'registry:forged',
          installed_at: new Date().toISOString(),
          skill_md: text,
        }),
      );
    } finally {
      await writer.close();
    }
    for (const service of services)
      await service.waitForLog(
        (line) =>
          line.msg === 'shared skill refused' && line.name === 'forged' && line.code === 'INTEGRITY_MISMATCH',
        10_000,
      );
    for (const id of ['skills-a', 'skills-b', 'skills-c'])
      expect(await exists(join(base, id, 'installed/forged'))).toBe(false);
    expect(await everyAnswerLists('forged', false)).toBe(true);
  }, 30_000);
});

describe('a skill-service facing a skills bucket made with other settings', () => {
  it('stops at start with STATE_BUCKET_MISMATCH naming the setting, and serves nothing', async () => {
    const nats = await startNatsTestServer();
    const base = await mkdtemp(join(tmpdir(), 'talon-skills-mismatch-'));
    try {
      const admin = await nats.connect('skill-service');
      await new Kvm(admin).create(SHARED_STATE_BUCKETS.skills, { ttl: 5_000 });
      await admin.close();
      const service = await startServiceProcess(
        'skill-service',
        {
          NATS_URL: nats.url,
          SKILLS_WORKSPACE_DIR: join(base, 'workspace'),
          SKILLS_DIR: join(base, 'user'),
          SKILLS_INSTALLED_DIR: join(base, 'installed'),
        },
        { waitReady: false },
      );
      const exit = await new Promise<number | null>((resolve) => service.child.once('exit', resolve));
      expect(exit).not.toBe(0);
      const refusal = service.logs.find((line) => line.code === 'STATE_BUCKET_MISMATCH');
      expect(refusal).toMatchObject({ msg: expect.stringMatching(/talon_skills .*expire after 5000 ms/) });
      expect(service.logs.some((line) => line.msg === 'ready')).toBe(false);
    } finally {
      await nats.stop();
      await rm(base, { recursive: true, force: true });
    }
  }, 30_000);
});
