import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Subscription } from '@nats-io/transport-node';
import type { ChatEvent, ChatSendReply, RemindersListReply, Routine } from '@talon/contracts';
import {
  connectTalonApi,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TalonApiClient,
  type TestDatabase,
} from '@talon/testing';

describe('the chat schedule intercept with no model configured (real NATS, PostgreSQL, process)', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let api: TalonApiClient;
  let orchestrator: ServiceProcess;
  let sql: pg.Client;
  const subscriptions: Subscription[] = [];

  function record(sessionId: string): ChatEvent[] {
    const events: ChatEvent[] = [];
    subscriptions.push(
      api.connection.subscribe(`talon.events.v1.session.${sessionId}`, {
        callback: (_error, message) => void events.push(message.json<ChatEvent>()),
      }),
    );
    return events;
  }

  function talon(...args: string[]): Promise<string> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [join(REPO_ROOT, 'apps/cli/dist/main.js'), ...args], {
        env: {
          PATH: process.env.PATH ?? '',
          NATS_URL: nats.url,
          NATS_PASSWORD: nats.credentials.api,
          TALON_TOKEN: nats.bootstrapToken,
        },
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('close', () => resolve(out));
    });
  }

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    // No TALON_LLM_*: the orchestrator has no model at all.
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(await findFreePort()),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_TIMEZONE: 'Asia/Shanghai',
      TALON_SCHEDULER_TICK_MS: '250',
    });
    api = await connectTalonApi(nats.url);
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
  }, 120_000);

  afterAll(async () => {
    for (const subscription of subscriptions) subscription.unsubscribe();
    await sql?.end();
    await api?.close();
    await orchestrator?.stop();
    await Promise.all([nats?.stop(), database?.drop()]);
  });

  it('confirms "每天早上9点提醒我查房" at once, and the reminder arrives when 09:00 comes', async () => {
    const { id: sessionId } = await api.ok<{ id: string }>('sessions.create', { title: 'ward' });
    const events = record(sessionId);
    const reply = await api.ok<ChatSendReply>('chat.send', { sessionId, message: '每天早上9点提醒我查房' });
    expect(reply).toMatchObject({
      reason: 'schedule_intercepted',
      content: '好的，每天 09:00 提醒你：查房',
      iterations: 0,
      usage: { inputTokens: 0, outputTokens: 0 },
    });
    const routineId = (reply.schedule as { routineId: string }).routineId;
    const routine = await api.ok<Routine>('routines.get', { id: routineId });
    expect(routine).toMatchObject({
      owner: `session:${sessionId}`,
      trigger: { kind: 'cron', expression: '0 9 * * *', timezone: 'Asia/Shanghai' },
      action: { kind: 'reminder', text: '查房', sessionId, target: '_reminder' },
    });
    // The next slot is a 09:00 in Shanghai (01:00 UTC).
    expect(new Date(routine.nextFireAt!).getUTCHours()).toBe(1);
    await waitUntil(
      async () => events.some((event) => event.type === 'turn_finished'),
      10_000,
      'turn events',
    );
    expect(events.find((event) => event.type === 'schedule_intercepted')).toMatchObject({
      modelSkipped: true,
      routineId,
    });
    expect(events.find((event) => event.type === 'turn_finished')).toMatchObject({
      reason: 'schedule_intercepted',
      modelSkipped: true,
    });

    const listed = await api.ok<RemindersListReply>('reminders.list', { sessionId });
    expect(listed.reminders).toEqual([
      expect.objectContaining({ id: routineId, text: '查房', description: '每天 09:00', state: 'active' }),
    ]);
    expect(listed.notifications).toEqual([]);

    // The clock override: 09:00 has come (the slot is due a second from now, inside the misfire grace).
    await sql.query(`UPDATE routine SET next_fire_at = now() + interval '1 second' WHERE id = $1`, [
      routineId,
    ]);
    await waitUntil(
      async () => events.some((event) => event.type === 'reminder'),
      20_000,
      'the reminder on the session stream',
    );
    expect(events.find((event) => event.type === 'reminder')).toMatchObject({
      sessionId,
      text: '查房',
      target: '_reminder',
      reminderId: routineId,
    });
    const after = await api.ok<RemindersListReply>('reminders.list', { sessionId });
    expect(after.notifications).toEqual([
      expect.objectContaining({ reminderId: routineId, sessionId, text: '查房' }),
    ]);
    // The routine goes on: its next slot is again a 09:00.
    const next = await api.ok<Routine>('routines.get', { id: routineId });
    expect(new Date(next.nextFireAt!).getUTCHours()).toBe(1);

    const cli = JSON.parse(await talon('reminders', '--json', '--session', sessionId)) as RemindersListReply;
    expect(cli.notifications[0]).toMatchObject({ text: '查房' });
    expect(await talon('reminders', '--session', sessionId)).toContain('查房');

    expect(await api.ok('reminders.cancel', { id: routineId })).toEqual({ id: routineId, cancelled: true });
    expect((await api.ok<RemindersListReply>('reminders.list', { sessionId })).reminders).toEqual([]);
    const gone = await api.call('reminders.cancel', { id: routineId });
    expect(gone).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  }, 60_000);

  it('asks when the schedule is ambiguous or unclear, creating nothing; other messages reach the (missing) model', async () => {
    const { id: sessionId } = await api.ok<{ id: string }>('sessions.create', { title: 'ask' });
    const ambiguous = await api.ok<ChatSendReply>('chat.send', { sessionId, message: '每天三点提醒我吃药' });
    expect(ambiguous.reason).toBe('needs_input');
    expect(ambiguous.content).toContain('03:00');
    expect(ambiguous.content).toContain('15:00');
    const impossible = await api.ok<ChatSendReply>('chat.send', { sessionId, message: '每天25点提醒我睡觉' });
    expect(impossible.reason).toBe('needs_input');
    expect(impossible.content).toBeTruthy();
    const english = await api.ok<ChatSendReply>('chat.send', {
      sessionId,
      message: 'remind me every weekday at 9am to stand up',
    });
    expect(english.content).toBe("OK, I'll remind you every weekday at 09:00: stand up");
    const listed = await api.ok<RemindersListReply>('reminders.list', { sessionId });
    expect(listed.reminders.map((reminder) => reminder.text)).toEqual(['stand up']);
    // No schedule: the turn goes to the model, which is not configured, and says so.
    const plain = await api.ok<ChatSendReply>('chat.send', { sessionId, message: 'hello there' });
    expect(plain.reason).not.toBe('schedule_intercepted');
    await sleep(10);
  }, 60_000);
});
