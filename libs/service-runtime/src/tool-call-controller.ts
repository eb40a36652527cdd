import {
  Controller,
  Inject,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import type { NatsHandlerRegistration } from './nats-handler-registration.js';
import type { ToolHost } from './tool-host.js';

/** Injection token of the {@link ToolHost} a worker app provides. */
export const TOOL_HOST = Symbol('TOOL_HOST');

/**
 * The Nest controller of a worker's tool host: it starts and stops the host with the app. The calls
 * themselves (`talon.tools.v1.call.<domain>`) reach the host through {@link toolCallHandler}, which the
 * worker's bootstrap registers with the NATS server. Both worker apps use it.
 */
@Controller()
export class ToolHostLifecycleController implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(TOOL_HOST) private readonly host: ToolHost) {}

  onApplicationBootstrap(): void {
    this.host.start();
  }

  beforeApplicationShutdown(): void {
    this.host.stop();
  }
}

/** The handler of the host's call subject: each call goes to `host` with its deadline and acknowledgement. */
export function toolCallHandler(host: ToolHost): NatsHandlerRegistration {
  return {
    pattern: host.callSubject,
    handler: (payload, context) => host.handleCall(payload, context.deadline, context.acknowledge),
  };
}
