import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HandsGetRequestSchema, type HandsGetRequest, type HandSummary } from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod } from '../api/api-method.js';
import { HAND_CATALOG } from '../config/orchestrator.constants.js';
import type { HandCatalog } from './hand-catalog.js';
import { HandNotFoundError } from './hand-not-found-error.js';

/** `hands.get`: one hand with its gating; NOT_FOUND (with the refusal, if its file was refused) otherwise. */
@Injectable()
export class HandsGetMethod implements ApiMethod<HandsGetRequest, HandSummary>, OnModuleInit {
  readonly name = 'hands.get';
  readonly description = 'Returns one hand: definition, settings, requirements, metrics and gating.';
  readonly scope = 'read' as const;
  readonly request = HandsGetRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(HAND_CATALOG) private readonly hands: HandCatalog,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: HandsGetRequest): Promise<HandSummary> {
    const { hands, rejected } = await this.hands.snapshot();
    const hand = hands.find((candidate) => candidate.id === request.id);
    if (hand) return hand;
    throw new HandNotFoundError(
      request.id,
      rejected.find((rejection) => rejection.id === request.id),
    );
  }
}
