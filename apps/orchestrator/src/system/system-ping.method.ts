import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  SUBJECTS,
  SystemPingRequestSchema,
  type SystemPingReply,
  type SystemPingRequest,
} from '@talon/contracts';
import type { NatsRequester } from '@talon/service-runtime';
import { ApiRouter } from '../api/api-router.js';
import type { ApiMethod, ApiCallContext } from '../api/api-method.js';
import { NATS_REQUESTER } from '../config/orchestrator.constants.js';

/** `system.ping`: a no-op request into one instance of a service (default tool-worker) and back. */
@Injectable()
export class SystemPingMethod implements ApiMethod<SystemPingRequest, SystemPingReply>, OnModuleInit {
  readonly name = 'system.ping';
  readonly description =
    'Sends a no-op request to one instance of a service (default tool-worker) and returns which instance answered.';
  readonly scope = 'read' as const;
  readonly request = SystemPingRequestSchema;

  constructor(
    private readonly router: ApiRouter,
    @Inject(NATS_REQUESTER) private readonly requester: NatsRequester,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  handle(request: SystemPingRequest, context: ApiCallContext): Promise<SystemPingReply> {
    const service = request.service ?? 'tool-worker';
    if (service === 'orchestrator') return Promise.resolve({ service, instanceId: 'self' });
    return this.requester.request<SystemPingReply>(
      SUBJECTS.ping(service),
      {},
      { timeoutMs: request.timeoutMs ?? 2000, callId: context.callId },
    );
  }
}
