import {
  All,
  Controller,
  Get,
  Inject,
  Param,
  Post,
  Query,
  Req,
  Res,
  Sse,
  type MessageEvent,
} from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import { from, interval, startWith, switchMap, type Observable } from 'rxjs';
import { buildOpenApiDocument, HEADERS, HTTP_STATUS_BY_CODE, type Envelope } from '@talon/contracts';
import { toWireError } from '@talon/errors';
import { UnknownMethodError, type JsonLogger } from '@talon/service-runtime';
import { recordCarrier } from '@talon/telemetry';
import { LOGGER, ORCHESTRATOR_CONFIG } from '../config/orchestrator.constants.js';
import type { OrchestratorConfig } from '../config/orchestrator-config.js';
import { ApiRouter } from './api-router.js';
import { readJsonBody } from './http-body-reader.js';
import { principalOf } from './http-front-door.js';

/**
 * The HTTP surface. `POST /v1/rpc/<method>` takes the same JSON as NATS; a few REST routes are
 * shorthands. Replies are the same envelope, with an HTTP status derived from the error code.
 */
@Controller()
export class HttpApiController {
  private openApiText: string | undefined;

  constructor(
    private readonly router: ApiRouter,
    @Inject(ORCHESTRATOR_CONFIG) private readonly config: OrchestratorConfig,
    @Inject(LOGGER) private readonly logger: JsonLogger,
  ) {}

  @Post('v1/rpc/:method')
  async rpc(
    @Param('method') method: string,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const callId = callIdOf(request);
    await this.reply(
      response,
      async () =>
        this.router.call(method, await readJsonBody(request, this.config.maxPayloadBytes), {
          surface: 'http',
          callId,
          principal: principalOf(request),
          traceCarrier: recordCarrier(request.headers),
        }),
      callId,
    );
  }

  @Get('v1/system/status')
  async status(
    @Query('timeoutMs') timeoutMs: string | undefined,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const payload = timeoutMs === undefined ? {} : { timeoutMs: Number(timeoutMs) };
    await this.reply(response, () =>
      this.router.call('system.status', payload, { surface: 'http', principal: principalOf(request) }),
    );
  }

  @Get('v1/methods')
  async methods(@Res() response: Response): Promise<void> {
    await this.reply(response, async () => this.router.list());
  }

  /**
   * The OpenAPI 3.1 document, built from the contract's schemas (the same as docs/openapi.json). Public
   * behind the Host and Origin checks: it holds no state and code generators fetch it without a token.
   */
  @Get('v1/openapi.json')
  openApi(@Res() response: Response): void {
    this.openApiText ??= JSON.stringify(buildOpenApiDocument());
    response
      .status(200)
      .type('application/json')
      .setHeader('cache-control', 'no-cache')
      .send(this.openApiText);
  }

  /** Server-sent events: `system.status` every `intervalMs` (default 2000). */
  @Sse('v1/system/status/stream')
  statusStream(@Req() request: Request, @Query('intervalMs') intervalMs?: string): Observable<MessageEvent> {
    const principal = principalOf(request);
    const period = Math.min(Math.max(Number(intervalMs) || 2000, 250), 60_000);
    return interval(period).pipe(
      startWith(0),
      switchMap(() => from(this.router.call('system.status', {}, { surface: 'http', principal }))),
      switchMap((data) => [{ type: 'status', data: data as object }]),
    );
  }

  @All('*path')
  async unknown(@Req() request: Request, @Res() response: Response): Promise<void> {
    await this.reply(response, async () => {
      throw new UnknownMethodError(
        `${request.method} ${request.path}`,
        this.router.list().map((method) => `POST /v1/rpc/${method.name}`),
      );
    });
  }

  private async reply(
    response: Response,
    produce: () => Promise<unknown>,
    callId: string = randomUUID(),
  ): Promise<void> {
    let envelope: Envelope<unknown>;
    let status = 200;
    try {
      envelope = { ok: true, data: (await produce()) ?? null };
    } catch (error) {
      const wire = toWireError(error);
      // Logged with the call id like the NATS surface does; the client finds it in the reply header.
      if (wire.code === 'INTERNAL')
        this.logger.write('error', 'handler failed', {
          surface: 'http',
          callId,
          error: String((error as Error)?.stack ?? error),
        });
      envelope = { ok: false, error: wire };
      status = HTTP_STATUS_BY_CODE[wire.code] ?? 500;
    }
    response
      .status(status)
      .setHeader(HEADERS.callId, callId)
      .type('application/json')
      .send(JSON.stringify(envelope));
  }
}

/** The caller's call id (`talon-call-id` header, at most 128 characters) or a new one. */
function callIdOf(request: Request): string {
  const given = request.headers[HEADERS.callId];
  return typeof given === 'string' && given.length > 0 && given.length <= 128 ? given : randomUUID();
}
