import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  HandInstanceRequestSchema,
  HandRunIdRequestSchema,
  HandsActivateRequestSchema,
  HandsInstancesRequestSchema,
  HandsApproveRequestSchema,
  HandsCancelRequestSchema,
  HandsExecuteRequestSchema,
  HandsRunsListRequestSchema,
  type HandInstanceRequest,
  type HandRunIdRequest,
  type HandsActivateRequest,
  type HandsApproveRequest,
  type HandsCancelRequest,
  type HandsExecuteRequest,
  type HandsRunsListRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { callerOf } from '../autonomy/jobs-api.js';
import { HAND_INSTANCE_SERVICE, HAND_RUN_SERVICE } from './hands.constants.js';
import type { HandInstanceService } from './hand-instance-service.js';
import type { HandRunService } from './hand-run-service.js';

/** `hands.execute`, `approve`, `cancel`, `activate`, `pause`, `resume`, `delete`, `instances`, `runs.*`. */
@Injectable()
export class HandsRunApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(HAND_RUN_SERVICE) private readonly runs: HandRunService,
    @Inject(HAND_INSTANCE_SERVICE) private readonly instances: HandInstanceService,
  ) {}

  onModuleInit(): void {
    const r = this.router;
    r.register({
      name: 'hands.execute',
      scope: 'agent',
      description:
        'Runs a hand (or an activated instance) once as a job; a hand that requires approval returns its run awaiting_approval.',
      request: HandsExecuteRequestSchema,
      handle: (request: HandsExecuteRequest, context: ApiCallContext) =>
        this.runs.execute(request, callerOf(context)),
    });
    r.register({
      name: 'hands.approve',
      scope: 'operator',
      description: 'Approves (or denies) a hand run awaiting approval; approving twice returns the same run.',
      request: HandsApproveRequestSchema,
      handle: (request: HandsApproveRequest, context: ApiCallContext) =>
        this.runs.approve(request.runId, request.decision ?? 'approve', callerOf(context)),
    });
    r.register({
      name: 'hands.cancel',
      scope: 'agent',
      description: 'Cancels every unfinished run of a hand or of an instance.',
      request: HandsCancelRequestSchema,
      handle: async (request: HandsCancelRequest, context: ApiCallContext) => ({
        runs: await this.runs.cancelAll(
          {
            ...(request.id ? { hand: request.id } : {}),
            ...(request.instance ? { instance: request.instance } : {}),
          },
          callerOf(context),
        ),
      }),
    });
    r.register({
      name: 'hands.activate',
      scope: 'agent',
      description: 'Activates a hand as a named instance with settings checked against its options.',
      request: HandsActivateRequestSchema,
      handle: (request: HandsActivateRequest, context: ApiCallContext) =>
        this.instances.activate(request.id, request.name, request.settings, callerOf(context)),
    });
    r.register({
      name: 'hands.pause',
      scope: 'agent',
      description: 'Pauses an instance: its runs are refused (HAND_NOT_ACTIVE) until it is resumed.',
      request: HandInstanceRequestSchema,
      handle: (request: HandInstanceRequest) => this.instances.pause(request.name),
    });
    r.register({
      name: 'hands.resume',
      scope: 'agent',
      description:
        'Resumes a paused or failed instance (error again, with the reason, if its hand no longer loads).',
      request: HandInstanceRequestSchema,
      handle: (request: HandInstanceRequest) => this.instances.resume(request.name),
    });
    r.register({
      name: 'hands.delete',
      scope: 'agent',
      description:
        'Deactivates an instance (inactive; its run history stays) and cancels its unfinished runs.',
      request: HandInstanceRequestSchema,
      handle: async (request: HandInstanceRequest, context: ApiCallContext) => {
        const instance = await this.instances.delete(request.name);
        await this.runs.cancelAll({ instance: request.name }, callerOf(context));
        return instance;
      },
    });
    r.register({
      name: 'hands.instances',
      scope: 'read',
      description:
        'Activated instances with their state and dashboard metrics (read from the memory keys their hand writes).',
      request: HandsInstancesRequestSchema,
      handle: async (request: { id?: string }) => ({ instances: await this.instances.list(request.id) }),
    });
    r.register({
      name: 'hands.runs.list',
      scope: 'read',
      description: 'Hand runs, newest first, by hand, instance or state.',
      request: HandsRunsListRequestSchema,
      handle: async (request: HandsRunsListRequest) => ({ runs: await this.runs.list(request) }),
    });
    r.register({
      name: 'hands.runs.get',
      scope: 'read',
      description:
        'One hand run: state, settings, result or error (its job events: jobs.events with the run id).',
      request: HandRunIdRequestSchema,
      handle: (request: HandRunIdRequest) => this.runs.get(request.runId),
    });
    r.register({
      name: 'hands.runs.cancel',
      scope: 'agent',
      description: 'Cancels one hand run; a running one stops its tool call and ends cancelled.',
      request: HandRunIdRequestSchema,
      handle: (request: HandRunIdRequest, context: ApiCallContext) =>
        this.runs.cancel(request.runId, callerOf(context)),
    });
  }
}
