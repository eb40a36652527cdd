import { Controller, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { WEBHOOK_SIGNATURE_HEADER, isUuid } from '@talon/contracts';
import { TalonError, toWireError } from '@talon/errors';
import { readRawBody } from '../api/http-body-reader.js';
import { ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { ROUTINE_SERVICE } from './autonomy.constants.js';
import type { RoutineService } from './routine-service.js';

/**
 * `POST /v1/hooks/<routine-id>`: a webhook trigger. Authenticated by the routine's own secret (an
 * HMAC-SHA256 signature header with a timestamp), not by an API token; a missing, bad or replayed
 * signature answers 401 and runs nothing. The body becomes the job's input.
 */
@Controller('v1/hooks')
export class WebhookController {
  constructor(
    @Inject(ROUTINE_SERVICE) private readonly routines: RoutineService,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
  ) {}

  @Post(':id')
  async receive(@Param('id') id: string, @Req() request: Request, @Res() response: Response): Promise<void> {
    try {
      if (!isUuid(id)) throw new TalonError('UNAUTHENTICATED', 'Webhook refused: unknown hook.');
      const body = await readRawBody(request, this.config.maxPayloadBytes);
      const fire = await this.routines.webhook(id, request.header(WEBHOOK_SIGNATURE_HEADER), body);
      response
        .status(202)
        .type('application/json')
        .send(JSON.stringify({ ok: true, data: fire }));
    } catch (error) {
      const wire = toWireError(error);
      const status =
        wire.code === 'UNAUTHENTICATED'
          ? 401
          : wire.code === 'PAYLOAD_TOO_LARGE'
            ? 413
            : wire.code === 'POLICY_DENIED'
              ? 409
              : 500;
      response
        .status(status)
        .type('application/json')
        .send(JSON.stringify({ ok: false, error: wire }));
    }
  }
}
