import type { TObject } from '@sinclair/typebox';
import {
  EventsEmitRequestSchema,
  JobIdRequestSchema,
  JobsCreateRequestSchema,
  JobsEventsRequestSchema,
  JobsListRequestSchema,
  RoutineIdRequestSchema,
  RoutinesCreateRequestSchema,
  RoutinesFireRequestSchema,
  RoutinesHistoryRequestSchema,
  RoutinesListRequestSchema,
  RoutinesUpdateRequestSchema,
  type EventsEmitRequest,
  type JobIdRequest,
  type JobsCreateRequest,
  type JobsEventsRequest,
  type JobsListRequest,
  type RoutineIdRequest,
  type RoutinesCreateRequest,
  type RoutinesFireRequest,
  type RoutinesHistoryRequest,
  type RoutinesListRequest,
  type RoutinesUpdateRequest,
} from '@talon/contracts';
import type { Tool, ToolContext } from '@talon/tool-runtime';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';
import type { JobService } from './job-service.js';
import type { RoutineService } from './routine-service.js';

/** The tool's parameters from the API method's request schema (one schema for both surfaces). */
function paramsOf(schema: TObject): Record<string, unknown> {
  const plain = JSON.parse(JSON.stringify(schema)) as { properties: unknown; required?: string[] };
  return { properties: plain.properties, required: plain.required ?? [] };
}

/** A model tool over an API method: parameters from the method's schema; changing tools ask first. */
export function tool<P>(
  name: string,
  description: string,
  schema: TObject,
  changes: boolean,
  execute: (params: P, context: ToolContext) => Promise<unknown>,
): Tool<P> {
  return {
    definition: controlPlaneToolDefinition({
      name,
      description,
      parameters: paramsOf(schema),
      effects: [],
      // Creating or changing autonomous work asks a person unless a grant allows the tool.
      approval: changes ? 'unless_auto_approved' : 'never',
      idempotent: !changes,
    }),
    execute,
  };
}

/** Who a model-made job or routine belongs to. */
export function modelOwner(context: ToolContext): string {
  return `model:${context.sessionId ?? 'unknown'}`;
}

/** The model's tools over jobs, routines and system events (protected names). */
export function createAutonomyTools(jobs: JobService, routines: RoutineService): Tool[] {
  return [
    tool<JobsCreateRequest>(
      'create_job',
      'Queues an autonomous job: a prompt, one tool call, a skill or a reminder, with its policy and limits.',
      JobsCreateRequestSchema,
      true,
      (params, context) => jobs.create(params, modelOwner(context)),
    ),
    tool<JobsListRequest>(
      'list_jobs',
      'Lists jobs, newest first.',
      JobsListRequestSchema,
      false,
      async (params) => ({
        jobs: await jobs.list(params),
      }),
    ),
    tool<JobIdRequest>(
      'job_status',
      'The state, result or error of one job.',
      JobIdRequestSchema,
      false,
      (params) => jobs.get(params.id),
    ),
    tool<JobIdRequest>(
      'cancel_job',
      'Cancels a job (a finished one is left as it is).',
      JobIdRequestSchema,
      true,
      (params, context) => jobs.cancel(params.id, modelOwner(context)),
    ),
    tool<JobsEventsRequest>(
      'job_events',
      'The stored events of a job.',
      JobsEventsRequestSchema,
      false,
      async (params) => ({
        events: await jobs.eventsOf(params.id, params.afterSeq, params.limit),
      }),
    ),
    tool<RoutinesCreateRequest>(
      'routine_create',
      'Creates a routine: a trigger (cron with timezone, interval, once, event, system_event, webhook, manual), an action and guardrails.',
      RoutinesCreateRequestSchema,
      true,
      async (params, context) => {
        const created = await routines.create(params, modelOwner(context));
        // The model never sees a webhook secret; a person reads it from the API.
        return {
          routine: created.routine,
          ...(created.webhookSecret ? { webhookSecret: '(shown to operators only)' } : {}),
        };
      },
    ),
    tool<RoutinesListRequest>(
      'routine_list',
      'Lists routines with their next fire.',
      RoutinesListRequestSchema,
      false,
      async (params) => ({
        routines: await routines.list(params),
      }),
    ),
    tool<RoutinesUpdateRequest>(
      'routine_update',
      'Changes a routine.',
      RoutinesUpdateRequestSchema,
      true,
      (params) => routines.update(params),
    ),
    tool<RoutineIdRequest>('routine_delete', 'Deletes a routine.', RoutineIdRequestSchema, true, (params) =>
      routines.delete(params.id),
    ),
    tool<RoutinesFireRequest>(
      'routine_fire',
      'Fires a routine now.',
      RoutinesFireRequestSchema,
      true,
      (params) => routines.fire(params.id, params.input),
    ),
    tool<RoutinesHistoryRequest>(
      'routine_history',
      'The fires of a routine: slot, claimant, job, outcome.',
      RoutinesHistoryRequestSchema,
      false,
      async (params) => ({ fires: await routines.history(params.id, params.limit) }),
    ),
    tool<EventsEmitRequest>(
      'event_emit',
      'Raises a system event; routines with a matching system_event trigger fire.',
      EventsEmitRequestSchema,
      true,
      async (params) => ({
        fires: await routines.emitSystemEvent(params.name, params.payload, params.dedupKey),
      }),
    ),
  ] as unknown as Tool[];
}
