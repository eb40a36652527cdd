import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { API_PREFIX } from '@talon/contracts';
import type { TalonNatsContext } from '@talon/service-runtime';
import { ApiAuthenticator } from '../auth/api-authenticator.js';
import { ApiRouter } from './api-router.js';

/**
 * The NATS surface: one wildcard subscription, so an unknown method gets UNKNOWN_METHOD, not silence.
 * The caller's token travels in the `talon-token` header.
 */
@Controller()
export class NatsApiController {
  constructor(
    private readonly router: ApiRouter,
    private readonly authenticator: ApiAuthenticator,
  ) {}

  @MessagePattern(`${API_PREFIX}.>`)
  async handle(@Payload() payload: unknown, @Ctx() context: TalonNatsContext): Promise<unknown> {
    const method = context.subject.slice(API_PREFIX.length + 1);
    const principal = await this.authenticator.authenticate(context.token);
    return this.router.call(method, payload, {
      surface: 'nats',
      callId: context.callId,
      traceparent: context.traceparent,
      principal,
    });
  }
}
