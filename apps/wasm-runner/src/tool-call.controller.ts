import { Controller, Inject, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Ctx, MessagePattern, Payload } from '@nestjs/microservices';
import { SUBJECTS, type ToolCallResult } from '@talon/contracts';
import type { TalonNatsContext, ToolHost } from '@talon/service-runtime';
import { TOOL_HOST } from './wasm-runner.constants.js';

/** Tool calls for the container domain (dev tools, WebAssembly tools, stdio MCP tools). */
@Controller()
export class ToolCallController implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(TOOL_HOST) private readonly host: ToolHost) {}

  onApplicationBootstrap(): void {
    this.host.start();
  }

  beforeApplicationShutdown(): void {
    this.host.stop();
  }

  @MessagePattern(SUBJECTS.toolCall('container'))
  call(@Payload() payload: unknown, @Ctx() context: TalonNatsContext): Promise<ToolCallResult> {
    return this.host.handleCall(payload, context.deadline);
  }
}
