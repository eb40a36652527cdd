import {
  Controller,
  Inject,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type Type,
} from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type ToolCallResult, type ToolDomain } from '@talon/contracts';
import type { TalonNatsContext } from './talon-nats-context.js';
import type { ToolHost } from './tool-host.js';

/** Injection token of the {@link ToolHost} a worker app provides. */
export const TOOL_HOST = Symbol('TOOL_HOST');

/**
 * The Nest controller of a worker's tool calls for one domain: it starts and stops the tool host with
 * the app and hands each call on `talon.tools.v1.call.<domain>` to it. Both worker apps use it.
 */
export function toolCallControllerFor(domain: ToolDomain): Type<unknown> {
  @Controller()
  class ToolCallController implements OnApplicationBootstrap, BeforeApplicationShutdown {
    constructor(@Inject(TOOL_HOST) private readonly host: ToolHost) {}

    onApplicationBootstrap(): void {
      this.host.start();
    }

    beforeApplicationShutdown(): void {
      this.host.stop();
    }

    @MessagePattern(SUBJECTS.toolCall(domain))
    call(@Payload() payload: unknown, @Ctx() context: TalonNatsContext): Promise<ToolCallResult> {
      return this.host.handleCall(payload, context.deadline, context.acknowledge);
    }
  }
  return ToolCallController;
}
