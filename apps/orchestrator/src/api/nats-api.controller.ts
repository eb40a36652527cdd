import { Controller } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { API_PREFIX } from '@talon/contracts';
import type { TalonNatsContext } from '@talon/service-runtime';
import { ApiRouter } from './api-router.js';

/** The NATS surface: one wildcard subscription, so an unknown method gets UNKNOWN_METHOD, not silence. */
@Controller()
export class NatsApiController {
  constructor(private readonly router: ApiRouter) {}

  @MessagePattern(`${API_PREFIX}.>`)
  handle(@Payload() payload: unknown, @Ctx() context: TalonNatsContext): Promise<unknown> {
    const method = context.subject.slice(API_PREFIX.length + 1);
    return this.router.call(method, payload, {
      surface: 'nats',
      callId: context.callId,
      traceparent: context.traceparent,
    });
  }
}
