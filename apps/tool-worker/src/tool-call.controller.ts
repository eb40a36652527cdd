import { Controller, Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type ToolCallResult } from '@talon/contracts';
import type { TalonNatsContext, ToolHost } from '@talon/service-runtime';
import { TOOL_HOST } from './tool-worker.constants.js';

/** Tool calls for the orchestrator domain, shared by every tool-worker in the queue group. */
@Controller()
export class ToolCallController implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(TOOL_HOST) private readonly host: ToolHost) {}

  onApplicationBootstrap(): void {
    this.host.start();
  }

  beforeApplicationShutdown(): void {
    this.host.stop();
  }

  @MessagePattern(SUBJECTS.toolCall('orchestrator'))
  call(@Payload() payload: unknown, @Ctx() context: TalonNatsContext): Promise<ToolCallResult> {
    return this.host.handleCall(payload, context.deadline);
  }
}
