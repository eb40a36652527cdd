import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  JobIdRequestSchema,
  JobsCreateRequestSchema,
  JobsEventsRequestSchema,
  JobsListRequestSchema,
  type JobIdRequest,
  type JobsCreateRequest,
  type JobsEventsRequest,
  type JobsListRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { JOB_SERVICE } from './autonomy.constants.js';
import type { JobService } from './job-service.js';

/** Who made an API call, as jobs and routines record it. */
export function callerOf(context: ApiCallContext): string {
  return context.principal ? `api:${context.principal.name}` : `api:${context.surface}`;
}

/** `jobs.create`, `jobs.list`, `jobs.get`, `jobs.cancel`, `jobs.events`. */
@Injectable()
export class JobsApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(JOB_SERVICE) private readonly jobs: JobService,
  ) {}

  onModuleInit(): void {
    this.router.register({
      name: 'jobs.create',
      scope: 'agent',
      description:
        'Queues an autonomous job (a prompt, a tool call, a skill, a reminder) with its policy and limits; any orchestrator runs it. Events on talon.events.v1.job.<id>.',
      request: JobsCreateRequestSchema,
      handle: (request: JobsCreateRequest, context: ApiCallContext) =>
        this.jobs.create(request, callerOf(context)),
    });
    this.router.register({
      name: 'jobs.list',
      scope: 'read',
      description: 'Jobs, newest first, optionally of one state or routine.',
      request: JobsListRequestSchema,
      handle: async (request: JobsListRequest) => ({ jobs: await this.jobs.list(request) }),
    });
    this.router.register({
      name: 'jobs.get',
      scope: 'read',
      description: 'One job: state, attempt, lease, result or error.',
      request: JobIdRequestSchema,
      handle: (request: JobIdRequest) => this.jobs.get(request.id),
    });
    this.router.register({
      name: 'jobs.cancel',
      scope: 'agent',
      description:
        'Cancels a job (pending: at once; running or waiting: its orchestrator stops it). A finished job is returned unchanged.',
      request: JobIdRequestSchema,
      handle: (request: JobIdRequest, context: ApiCallContext) =>
        this.jobs.cancel(request.id, callerOf(context)),
    });
    this.router.register({
      name: 'jobs.events',
      scope: 'read',
      description: 'Stored events of a job after `afterSeq` (then follow talon.events.v1.job.<id>).',
      request: JobsEventsRequestSchema,
      handle: async (request: JobsEventsRequest) => ({
        events: await this.jobs.eventsOf(request.id, request.afterSeq, request.limit),
      }),
    });
  }
}
