import {
  ERROR_CODES,
  type HandInstance,
  type HandInstanceState,
  type HandMetricValue,
  type HandSettingValues,
} from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { resolveHandSettings } from '@talon/hands';
import type { HandInstance as HandInstanceRow, Prisma, PrismaClient } from '@talon/persistence';
import type { HandCatalog } from './hand-catalog.js';
import { HandNotActiveError } from './hand-not-active-error.js';
import { readHandMetrics } from './hand-metrics.js';

/**
 * Activated hands (OpenFang's lifecycle): a named instance with settings checked against the hand's
 * options, `active ⇄ paused`, `error` when its hand no longer loads, `inactive` once deleted (the name and
 * its run history stay; activating the name again starts it afresh).
 */
export class HandInstanceService {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly catalog: HandCatalog,
  ) {}

  async activate(
    handId: string,
    name: string,
    chosen: HandSettingValues | undefined,
    by: string,
  ): Promise<HandInstance> {
    const hand = await this.catalog.require(handId);
    if (hand.system)
      throw new TalonError(
        ERROR_CODES.POLICY_DENIED,
        `"${handId}" is a system hand; it runs on its own (reminders) and cannot be activated.`,
        { details: { id: handId } },
      );
    const settings = resolveHandSettings(hand, chosen);
    const existing = await this.prisma.handInstance.findUnique({ where: { name } });
    if (existing && existing.state !== 'inactive')
      throw new TalonError(
        ERROR_CODES.NAME_CONFLICT,
        `A hand instance "${name}" exists (${existing.handId}, ${existing.state}); pick another name or delete it first.`,
        { details: { name } },
      );
    const data = {
      handId,
      state: 'active',
      settings: settings as Prisma.InputJsonValue,
      error: null,
      createdBy: by,
    };
    const row = existing
      ? await this.prisma.handInstance.update({ where: { name }, data })
      : await this.prisma.handInstance.create({ data: { name, ...data } });
    return toInstanceView(row);
  }

  async pause(name: string): Promise<HandInstance> {
    const row = await this.require(name);
    if (row.state === 'inactive') throw new HandNotActiveError(name, row.state);
    return toInstanceView(
      await this.prisma.handInstance.update({ where: { name }, data: { state: 'paused' } }),
    );
  }

  /** Back to `active` when its hand still loads and its settings still fit; `error` with the reason otherwise. */
  async resume(name: string): Promise<HandInstance> {
    const row = await this.require(name);
    if (row.state === 'inactive') throw new HandNotActiveError(name, row.state);
    try {
      const hand = await this.catalog.require(row.handId);
      resolveHandSettings(hand, row.settings as HandSettingValues);
    } catch (error) {
      await this.prisma.handInstance.update({
        where: { name },
        data: { state: 'error', error: (error as Error).message },
      });
      throw error;
    }
    return toInstanceView(
      await this.prisma.handInstance.update({ where: { name }, data: { state: 'active', error: null } }),
    );
  }

  /** Marks the instance inactive: no more runs; its unfinished runs are the caller's to cancel. */
  async delete(name: string): Promise<HandInstance> {
    await this.require(name);
    return toInstanceView(
      await this.prisma.handInstance.update({ where: { name }, data: { state: 'inactive' } }),
    );
  }

  /** The instance a run names, refused unless active. */
  async requireActive(name: string): Promise<HandInstanceRow> {
    const row = await this.require(name);
    if (row.state !== 'active') throw new HandNotActiveError(name, row.state, row.error ?? undefined);
    return row;
  }

  /** Every instance with its dashboard figures read now from the memory keys its hand writes. */
  async list(handId?: string): Promise<Array<HandInstance & { metrics: HandMetricValue[] }>> {
    const rows = await this.prisma.handInstance.findMany({
      where: handId ? { handId } : {},
      orderBy: { createdAt: 'asc' },
    });
    const { hands } = await this.catalog.snapshot();
    return Promise.all(
      rows.map(async (row) => {
        const hand = hands.find((candidate) => candidate.id === row.handId);
        const view = toInstanceView(row);
        // A hand whose file went away or was refused leaves its instances in error.
        if (!hand && row.state !== 'inactive')
          return {
            ...view,
            state: 'error' as const,
            error: `hand "${row.handId}" no longer loads`,
            metrics: [],
          };
        return { ...view, metrics: hand ? await readHandMetrics(this.prisma, hand.metrics) : [] };
      }),
    );
  }

  private async require(name: string): Promise<HandInstanceRow> {
    const row = await this.prisma.handInstance.findUnique({ where: { name } });
    if (!row)
      throw new TalonError(
        ERROR_CODES.NOT_FOUND,
        `No hand instance "${name}"; activate one with hands.activate.`,
        { details: { name } },
      );
    return row;
  }
}

function toInstanceView(row: HandInstanceRow): HandInstance {
  return {
    name: row.name,
    hand: row.handId,
    state: row.state as HandInstanceState,
    settings: row.settings as HandSettingValues,
    ...(row.error ? { error: row.error } : {}),
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
