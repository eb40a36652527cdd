import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  EventsEmitRequestSchema,
  RoutineIdRequestSchema,
  RoutinesCreateRequestSchema,
  RoutinesFireRequestSchema,
  RoutinesHistoryRequestSchema,
  RoutinesListRequestSchema,
  RoutinesUpdateRequestSchema,
  type EventsEmitRequest,
  type RoutineIdRequest,
  type RoutinesCreateRequest,
  type RoutinesFireRequest,
  type RoutinesHistoryRequest,
  type RoutinesListRequest,
  type RoutinesUpdateRequest,
} from '@talon/contracts';
import { ApiRouter } from '../api/api-router.js';
import type { ApiCallContext } from '../api/api-method.js';
import { ROUTINE_SERVICE } from './autonomy.constants.js';
import { callerOf } from './jobs-api.js';
import type { RoutineService } from './routine-service.js';

/** `routines.*` and `events.emit`. */
@Injectable()
export class RoutinesApi implements OnModuleInit {
  constructor(
    private readonly router: ApiRouter,
    @Inject(ROUTINE_SERVICE) private readonly routines: RoutineService,
  ) {}

  onModuleInit(): void {
    const routines = this.routines;
    this.router.register({
      name: 'routines.create',
      scope: 'agent',
      description:
        'Creates a routine: trigger (cron+timezone, interval, once, event, system_event, webhook, manual) + action + guardrails. A webhook routine returns its secret once.',
      request: RoutinesCreateRequestSchema,
      handle: (request: RoutinesCreateRequest, context: ApiCallContext) =>
        routines.create(request, callerOf(context)),
    });
    this.router.register({
      name: 'routines.list',
      scope: 'read',
      description: 'Routines with their state, next fire and failure count.',
      request: RoutinesListRequestSchema,
      handle: async (request: RoutinesListRequest) => ({ routines: await routines.list(request) }),
    });
    this.router.register({
      name: 'routines.get',
      scope: 'read',
      description: 'One routine.',
      request: RoutineIdRequestSchema,
      handle: (request: RoutineIdRequest) => routines.get(request.id),
    });
    this.router.register({
      name: 'routines.update',
      scope: 'agent',
      description: 'Changes a routine (a new trigger recomputes the next fire from now).',
      request: RoutinesUpdateRequestSchema,
      handle: (request: RoutinesUpdateRequest) => routines.update(request),
    });
    this.router.register({
      name: 'routines.delete',
      scope: 'agent',
      description: 'Deletes a routine and its history; a job it started finishes on its own.',
      request: RoutineIdRequestSchema,
      handle: (request: RoutineIdRequest) => routines.delete(request.id),
    });
    this.router.register({
      name: 'routines.pause',
      scope: 'agent',
      description: 'Pauses a routine: no slot fires until it is resumed.',
      request: RoutineIdRequestSchema,
      handle: (request: RoutineIdRequest) => routines.pause(request.id),
    });
    this.router.register({
      name: 'routines.resume',
      scope: 'agent',
      description:
        'Resumes a paused or auto-disabled routine (failure count reset); slots count from now, missed ones are not fired.',
      request: RoutineIdRequestSchema,
      handle: (request: RoutineIdRequest) => routines.resume(request.id),
    });
    this.router.register({
      name: 'routines.fire',
      scope: 'agent',
      description:
        'Fires a routine now (manual), through its guardrails; the reply is the fire and its job id.',
      request: RoutinesFireRequestSchema,
      handle: (request: RoutinesFireRequest) => routines.fire(request.id, request.input),
    });
    this.router.register({
      name: 'routines.history',
      scope: 'read',
      description: 'Fires of a routine, newest first: slot, claimant instance, job, outcome, duration.',
      request: RoutinesHistoryRequestSchema,
      handle: async (request: RoutinesHistoryRequest) => ({
        fires: await routines.history(request.id, request.limit),
      }),
    });
    this.router.register({
      name: 'routines.secret',
      scope: 'operator',
      description:
        'The webhook secret of a routine (to sign calls to /v1/hooks/<id>); never shown to models.',
      request: RoutineIdRequestSchema,
      handle: (request: RoutineIdRequest) => routines.secret(request.id),
    });
    this.router.register({
      name: 'events.emit',
      scope: 'agent',
      description:
        'Raises a system event: routines with a matching system_event trigger fire (dedupKey for their dedup window).',
      request: EventsEmitRequestSchema,
      handle: async (request: EventsEmitRequest) => ({
        fires: await routines.emitSystemEvent(request.name, request.payload, request.dedupKey),
      }),
    });
  }
}
