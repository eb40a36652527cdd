import { createHash, randomUUID } from 'node:crypto';
import {
  compileEventPattern,
  firstSlot,
  generateWebhookSecret,
  isScheduled,
  validateTrigger,
  verifyWebhook,
} from '@talon/autonomy';
import {
  ERROR_CODES,
  type JobAction,
  type Routine,
  type RoutineFire,
  type RoutinesCreateReply,
  type RoutinesCreateRequest,
  type RoutinesUpdateRequest,
  type Trigger,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import type { SecretCipher } from '@talon/agent';
import type { Prisma, PrismaClient, Routine as RoutineRow } from '@talon/persistence';
import { countFires } from './autonomy-metrics.js';
import { commitFires, type FireClaim } from './fire-committer.js';
import type { JobStore } from './job-store.js';
import type { JobActionValidator } from './job-action-validator.js';
import { toFireView, toRoutineView, type FireRow } from './routine-view.js';

/** How long the list of event routines is cached for message matching. */
const EVENT_ROUTINES_TTL_MS = 2_000;

/** A webhook call refused before anything ran (answered 401). */
export class WebhookRefusedError extends TalonError {
  constructor(reason: string) {
    super(
      ERROR_CODES.UNAUTHENTICATED,
      `Webhook refused: ${reason}. Sign the body as docs/autonomy.md describes.`,
    );
  }
}

/**
 * Routines: create/update/delete with validated triggers and actions, pause/resume, history, and the
 * event paths (manual fire, chat-message patterns, system events, signed webhooks), each claiming its
 * fire through the same unique insert as the scheduler.
 */
export class RoutineService {
  private eventRoutines?: { at: number; rows: Array<{ row: RoutineRow; pattern: RegExp }> };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly jobs: JobStore,
    private readonly actions: JobActionValidator,
    /** Seals webhook secrets at rest with the secrets key (bound to the routine id). */
    private readonly cipher: SecretCipher,
    private readonly owner: string,
    private readonly onEnqueued: () => void,
    /** A routine's next slot was set here (created, changed, resumed): the scheduler looks at once. */
    private readonly onScheduled: () => void = () => undefined,
  ) {}

  private seal(id: string, secret: string): string {
    return this.cipher.encrypt(`routine-webhook:${id}`, secret);
  }

  private unseal(row: RoutineRow): string | undefined {
    return row.webhookSecret
      ? this.cipher.decrypt(`routine-webhook:${row.id}`, row.webhookSecret)
      : undefined;
  }

  /** Creates a routine; `id` is given for routines whose identity is derived (skill triggers). */
  async create(request: RoutinesCreateRequest, owner: string, id?: string): Promise<RoutinesCreateReply> {
    const now = new Date();
    validateTrigger(request.trigger, now);
    await this.actions.validate(request.action, request.policy);
    const secret = request.trigger.kind === 'webhook' ? generateWebhookSecret() : undefined;
    const routineId = id ?? randomUUID();
    const row = await this.prisma.routine.create({
      data: {
        id: routineId,
        name: request.name,
        owner,
        triggerKind: request.trigger.kind,
        trigger: request.trigger as Prisma.InputJsonValue,
        action: request.action as Prisma.InputJsonValue,
        policy: (request.policy ?? {}) as Prisma.InputJsonValue,
        limits: (request.limits ?? {}) as Prisma.InputJsonValue,
        guardrails: (request.guardrails ?? {}) as Prisma.InputJsonValue,
        eventName: request.trigger.kind === 'system_event' ? request.trigger.name : null,
        paused: request.paused ?? false,
        nextFireAt: scheduleFrom(request.trigger, now, now),
        webhookSecret: secret ? this.seal(routineId, secret) : null,
        createdAt: now,
      },
    });
    this.eventRoutines = undefined;
    if (row.nextFireAt) this.onScheduled();
    return { routine: toRoutineView(row), ...(secret ? { webhookSecret: secret } : {}) };
  }

  async update(request: RoutinesUpdateRequest): Promise<Routine> {
    const current = await this.require(request.id);
    const now = new Date();
    if (request.trigger) validateTrigger(request.trigger, now);
    if (request.action || request.policy)
      await this.actions.validate(
        request.action ?? (current.action as JobAction),
        request.policy ?? (current.policy as RoutinesCreateRequest['policy']),
      );
    const trigger = request.trigger;
    const row = await this.prisma.routine.update({
      where: { id: request.id },
      data: {
        ...(request.name ? { name: request.name } : {}),
        ...(request.action ? { action: request.action as Prisma.InputJsonValue } : {}),
        ...(request.policy ? { policy: request.policy as Prisma.InputJsonValue } : {}),
        ...(request.limits ? { limits: request.limits as Prisma.InputJsonValue } : {}),
        ...(request.guardrails ? { guardrails: request.guardrails as Prisma.InputJsonValue } : {}),
        ...(trigger
          ? {
              trigger: trigger as Prisma.InputJsonValue,
              triggerKind: trigger.kind,
              eventName: trigger.kind === 'system_event' ? trigger.name : null,
              nextFireAt: scheduleFrom(trigger, now, current.createdAt),
              webhookSecret:
                trigger.kind === 'webhook'
                  ? (current.webhookSecret ?? this.seal(current.id, generateWebhookSecret()))
                  : null,
            }
          : {}),
      },
    });
    this.eventRoutines = undefined;
    if (row.nextFireAt) this.onScheduled();
    return toRoutineView(row);
  }

  /** Deletes a routine and its history; its running jobs finish (they are not orphaned: they end on their own). */
  async delete(id: string): Promise<{ id: string; deleted: boolean }> {
    const deleted = await this.prisma.routine.deleteMany({ where: { id } });
    this.eventRoutines = undefined;
    return { id, deleted: deleted.count > 0 };
  }

  async pause(id: string): Promise<Routine> {
    await this.require(id);
    this.eventRoutines = undefined;
    return toRoutineView(await this.prisma.routine.update({ where: { id }, data: { paused: true } }));
  }

  /** Resumes a paused or auto-disabled routine: the failure count restarts and slots count from now. */
  async resume(id: string): Promise<Routine> {
    const current = await this.require(id);
    const now = new Date();
    this.eventRoutines = undefined;
    const row = await this.prisma.routine.update({
      where: { id },
      data: {
        paused: false,
        disabledReason: null,
        consecutiveFailures: 0,
        nextFireAt: scheduleFrom(current.trigger as Trigger, now, current.createdAt),
      },
    });
    if (row.nextFireAt) this.onScheduled();
    return toRoutineView(row);
  }

  /** The webhook secret of a routine (operators only: skill-made webhook routines have no other way to show it). */
  async secret(id: string): Promise<{ id: string; webhookSecret: string }> {
    const secret = this.unseal(await this.require(id));
    if (!secret)
      throw new TalonError(ERROR_CODES.NOT_FOUND, `Routine ${id} has no webhook trigger.`, {
        details: { id },
      });
    return { id, webhookSecret: secret };
  }

  async get(id: string): Promise<Routine> {
    return toRoutineView(await this.require(id));
  }

  async list(filter: { owner?: string; limit?: number }): Promise<Routine[]> {
    const rows = await this.prisma.routine.findMany({
      where: filter.owner ? { owner: filter.owner } : {},
      orderBy: { createdAt: 'asc' },
      take: filter.limit ?? 200,
    });
    return rows.map(toRoutineView);
  }

  async history(id: string, limit = 100): Promise<RoutineFire[]> {
    await this.require(id);
    const rows: FireRow[] = await this.prisma.routineFire.findMany({
      where: { routineId: id },
      orderBy: { slotAt: 'desc' },
      take: limit,
    });
    return rows.map(toFireView);
  }

  /** `routines.fire`: a manual fire, whatever the trigger (refused while paused or disabled). */
  async fire(id: string, input?: unknown): Promise<RoutineFire> {
    const [fire] = await this.fireNow([id], { source: 'manual', input }, true);
    return fire!;
  }

  /** Fires the routines whose `system_event` trigger names this event. */
  async emitSystemEvent(name: string, payload?: unknown, dedupKey?: string): Promise<RoutineFire[]> {
    const rows = await this.prisma.routine.findMany({
      where: { triggerKind: 'system_event', eventName: name, paused: false, disabledReason: null },
      select: { id: true },
    });
    return this.fireNow(
      rows.map((row) => row.id),
      {
        source: 'system_event',
        input: { event: name, payload: payload ?? null },
        dedupKey: dedupKey ?? name,
      },
      false,
    );
  }

  /** Fires the `event` routines whose pattern matches a chat message (of their session, when scoped). */
  async onChatMessage(sessionId: string, message: string): Promise<RoutineFire[]> {
    const routines = await this.eventRoutinesCached();
    const matched = routines.filter(({ row, pattern }) => {
      const trigger = row.trigger as Extract<Trigger, { kind: 'event' }>;
      if (trigger.sessionId !== undefined && trigger.sessionId !== sessionId) return false;
      return pattern.test(message.slice(0, 20_000));
    });
    if (matched.length === 0) return [];
    const dedupKey = createHash('sha256').update(`${sessionId}\n${message}`).digest('hex');
    return this.fireNow(
      matched.map(({ row }) => row.id),
      { source: 'event', input: { sessionId, message: message.slice(0, 20_000) }, dedupKey },
      false,
    );
  }

  /**
   * A signed webhook call: verified against the routine's secret and timestamp, then claimed with the
   * signature as the fire's identity, so a replay inside the tolerance conflicts and runs nothing.
   */
  async webhook(id: string, signature: string | undefined, body: Buffer): Promise<RoutineFire> {
    const row = await this.prisma.routine.findUnique({ where: { id } });
    // The same answer for an unknown routine and a bad signature: nothing to learn by probing.
    if (!row || row.triggerKind !== 'webhook' || !row.webhookSecret)
      throw new WebhookRefusedError('unknown hook');
    const verdict = verifyWebhook(this.unseal(row)!, signature, body);
    if (!verdict.ok) throw new WebhookRefusedError(verdict.reason);
    let input: unknown = body.toString('utf8');
    try {
      input = JSON.parse(input as string);
    } catch {
      // A non-JSON body stays text.
    }
    const fires = await this.fireNow(
      [id],
      { source: 'webhook', input, slotKey: `webhook:${verdict.signature}`, dedupKey: verdict.signature },
      true,
    ).catch((error: unknown) => {
      if (TalonError.isInstance(error) && error.code === ERROR_CODES.NAME_CONFLICT)
        throw new WebhookRefusedError('this signature was already used (replay)');
      throw error;
    });
    return fires[0]!;
  }

  private async fireNow(
    ids: readonly string[],
    claim: { source: string; input?: unknown; dedupKey?: string; slotKey?: string },
    strict: boolean,
  ): Promise<RoutineFire[]> {
    if (ids.length === 0) return [];
    const fires = await this.prisma.$transaction(async (tx) => {
      const [{ now }] = (await tx.$queryRaw<Array<{ now: Date }>>`SELECT now() AS now`) as [{ now: Date }];
      const locked = await tx.$queryRaw<Array<{ id: string }>>`
        SELECT id FROM routine WHERE id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
        ORDER BY id FOR UPDATE`;
      const rows = await tx.routine.findMany({ where: { id: { in: locked.map((row) => row.id) } } });
      if (strict) {
        const row = rows[0];
        if (!row) throw notFound(ids[0]!);
        if (row.paused || row.disabledReason !== null)
          throw new TalonError(
            ERROR_CODES.POLICY_DENIED,
            `Routine ${row.id} is ${row.paused ? 'paused' : `disabled (${row.disabledReason})`}; resume it first.`,
            { details: { id: row.id } },
          );
      }
      const active = rows.filter((row) => !row.paused && row.disabledReason === null);
      const fire = (): FireClaim => ({
        slotAt: now,
        slotKey: claim.slotKey ?? `${claim.source}:${randomUUID()}`,
        source: claim.source,
        ...(claim.dedupKey ? { dedupKey: claim.dedupKey } : {}),
        ...(claim.input === undefined ? {} : { input: claim.input }),
      });
      const claimed = await commitFires(
        tx,
        this.jobs,
        this.owner,
        now,
        active.map((routine) => ({ routine, fires: [fire()] })),
      );
      if (strict && claimed.length === 0)
        throw new TalonError(ERROR_CODES.NAME_CONFLICT, 'This fire was already claimed.');
      return claimed;
    });
    countFires(fires);
    if (fires.some((fire) => fire.outcome === 'enqueued')) this.onEnqueued();
    return fires;
  }

  private async eventRoutinesCached(): Promise<Array<{ row: RoutineRow; pattern: RegExp }>> {
    if (this.eventRoutines && Date.now() - this.eventRoutines.at < EVENT_ROUTINES_TTL_MS)
      return this.eventRoutines.rows;
    const rows = await this.prisma.routine.findMany({
      where: { triggerKind: 'event', paused: false, disabledReason: null },
    });
    const compiled = rows.flatMap((row) => {
      const trigger = row.trigger as Extract<Trigger, { kind: 'event' }>;
      try {
        return [{ row, pattern: compileEventPattern(trigger.pattern, trigger.flags) }];
      } catch {
        return [];
      }
    });
    this.eventRoutines = { at: Date.now(), rows: compiled };
    return compiled;
  }

  private async require(id: string): Promise<RoutineRow> {
    const row = await this.prisma.routine.findUnique({ where: { id } });
    if (!row) throw notFound(id);
    return row;
  }
}

/** The first slot of a scheduled trigger from `now`; null for event triggers. */
function scheduleFrom(trigger: Trigger, now: Date, anchor: Date): Date | null {
  return isScheduled(trigger) ? (firstSlot(trigger, now, anchor) ?? null) : null;
}

function notFound(id: string): TalonError {
  return new TalonError(ERROR_CODES.NOT_FOUND, `No routine ${id}; list them with routines.list.`, {
    details: { id },
  });
}
