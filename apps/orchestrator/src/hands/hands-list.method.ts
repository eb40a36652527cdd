import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HandsListRequestSchema, type HandsListReply } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { HAND_CATALOG } from '../config/orchestrator.constants.js';
import type { HandCatalog } from './hand-catalog.js';

/** `hands.list`: system and file hands with their gating, and the HAND.toml files refused. */
@Injectable()
export class HandsListMethod implements ApiMethod<Record<string, never>, HandsListReply>, OnModuleInit {
  readonly name = 'hands.list';
  readonly description =
    'Lists hands (system hands first) with gating and reasons, and the HAND.toml files refused.';
  readonly scope = 'read' as const;
  readonly request = HandsListRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(HAND_CATALOG) private readonly hands: HandCatalog,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(): Promise<HandsListReply> {
    const { hands, rejected } = await this.hands.snapshot();
    return { hands, rejected };
  }
}
