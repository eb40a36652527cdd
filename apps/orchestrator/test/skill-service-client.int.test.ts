import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ToolDefinition } from '@talon/contracts';
import { NatsRequester } from '@talon/service-runtime';
import {
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
} from '@talon/testing';
import { SkillServiceClient } from '../src/skills/skill-service-client.js';

const SKILL =
  '---\nname: sql-tuning\nversion: 2.0.0\ndescription: Tunes slow SQL queries.\nactivation:\n  keywords: [slow query, explain plan]\n---\n# SQL tuning\n';

function tool(name: string, effects: ToolDefinition['effects']): ToolDefinition {
  return {
    name,
    description: name,
    parameters: { type: 'object' },
    effects,
    approval: 'never',
    timeoutMs: 1000,
    domain: 'orchestrator',
    source: 'builtin',
    sensitiveParams: [],
    idempotent: true,
  };
}

describe('SkillServiceClient against a running skill-service', () => {
  let nats: NatsTestServer;
  let connection: NatsConnection;
  let service: ServiceProcess;
  let root: string;
  let client: SkillServiceClient;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'talon-skill-client-'));
    await mkdir(join(root, 'installed', 'sql-tuning'), { recursive: true });
    await writeFile(join(root, 'installed', 'sql-tuning', 'SKILL.md'), SKILL);
    nats = await startNatsTestServer();
    service = await startServiceProcess('skill-service', {
      NATS_URL: nats.url,
      SKILLS_WORKSPACE_DIR: join(root, 'workspace'),
      SKILLS_DIR: join(root, 'user'),
      SKILLS_INSTALLED_DIR: join(root, 'installed'),
    });
    connection = await nats.connect('orchestrator');
    client = new SkillServiceClient(new NatsRequester(connection), { timeoutMs: 2_000 });
  }, 60_000);

  afterAll(async () => {
    await connection?.close();
    await service?.kill();
    await nats?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('selects, then attenuates with what it selected (the agent loop’s two calls)', async () => {
    const selected = await client.select('this slow query needs an explain plan', { maxActive: 1 });
    expect(selected.active.map((skill) => [skill.name, skill.trust])).toEqual([['sql-tuning', 'INSTALLED']]);
    const attenuated = await client.attenuate(selected.active, [
      tool('memory_read', []),
      tool('http', ['network']),
    ]);
    expect(attenuated.kept.map((kept) => kept.name)).toEqual(['memory_read']);
    expect(attenuated.ceiling).toMatchObject({ mode: 'read_only', causedBy: ['sql-tuning'] });
    expect((await client.attenuate([], [tool('http', ['network'])])).ceiling.mode).toBe('all');
  });

  it('reads the list, the triggers and the report', async () => {
    expect((await client.list()).skills.map((skill) => skill.name)).toEqual(['sql-tuning']);
    expect((await client.triggers()).commands).toEqual([]);
    expect((await client.report()).dirs.map((dir) => [dir.source, dir.exists])).toEqual([
      ['workspace', false],
      ['user', false],
      ['installed', true],
    ]);
  });

  it('stops waiting when the caller aborts, and refuses to start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('turn cancelled'));
    await expect(client.select('anything', { signal: controller.signal })).rejects.toThrow('turn cancelled');
    const late = new AbortController();
    const pending = client.list({}, { signal: late.signal });
    late.abort(new Error('gone'));
    await expect(pending).rejects.toThrow('gone');
  });

  it('maps a stopped service to NO_RESPONDERS at once', async () => {
    await service.stop();
    const started = performance.now();
    await expect(client.list()).rejects.toMatchObject({ code: 'NO_RESPONDERS' });
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
