import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  ToolsCallRequestSchema,
  type ApiScope,
  type ToolsCallReply,
  type ToolsCallRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext, ApiMethod } from '../api/api-method.js';
import { ERROR_CODES } from '@talon/contracts';
import { TalonError } from '@talon/errors';
import { POLICY_GATE, TOOL_DISPATCHER } from '../config/orchestrator.constants.js';
import type { PolicyGate } from '../agent/policy-gate.js';
import type { ToolDispatcher } from './tool-dispatcher.js';
import { SessionAccess } from '../auth/session-access.js';

/** `tools.call`: run one tool through the whole pipeline, as an operator. */
@Injectable()
export class ToolsCallMethod implements ApiMethod<ToolsCallRequest, ToolsCallReply>, OnModuleInit {
  readonly name = 'tools.call';
  readonly description =
    'Runs one tool through the full pipeline (validation, dispatch, output safety, audit); with policy "agent" the session\'s policy and approvals apply too.';
  readonly request = ToolsCallRequestSchema;
  /** An operator call skips approvals, so it needs `operator`; under the agent policy `agent` suffices. */
  readonly scope = (request: ToolsCallRequest): ApiScope =>
    request.policy === 'agent' ? 'agent' : 'operator';

  constructor(
    private readonly router: ApiRouter,
    @Inject(TOOL_DISPATCHER) private readonly dispatcher: ToolDispatcher,
    @Inject(POLICY_GATE) private readonly gate: PolicyGate,
    private readonly access: SessionAccess,
  ) {}

  onModuleInit(): void {
    this.router.register(this);
  }

  async handle(request: ToolsCallRequest, context: ApiCallContext): Promise<ToolsCallReply> {
    const sessionId = request.sessionId;
    if (sessionId) await this.access.assertCanUse(context.principal, sessionId);
    // The call is built field by field: the request's fields are fixed by its schema, so this hot path needs
    // no rest-and-spread copy of it.
    const callId = request.callId ?? context.callId;
    if (request.policy === 'agent') {
      if (!sessionId)
        throw new TalonError(
          ERROR_CODES.SCHEMA_VIOLATION,
          'tools.call with policy "agent" needs a sessionId (create one with sessions.create).',
        );
      return this.gate.call({
        tool: request.tool,
        params: request.params,
        sessionId,
        callId,
        timeoutMs: request.timeoutMs,
        actor: `agent:${context.surface}`,
      });
    }
    return this.dispatcher.call({
      tool: request.tool,
      params: request.params,
      sessionId,
      callId,
      timeoutMs: request.timeoutMs,
      actor: `operator:${context.surface}`,
    });
  }
}
