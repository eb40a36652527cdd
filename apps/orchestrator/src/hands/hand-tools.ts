import { Type } from '@sinclair/typebox';
import {
  HandRunIdRequestSchema,
  HandsCancelRequestSchema,
  HandsExecuteRequestSchema,
  HandsGetRequestSchema,
  HandsRunsListRequestSchema,
  type HandRunIdRequest,
  type HandsCancelRequest,
  type HandsExecuteRequest,
  type HandsGetRequest,
  type HandsRunsListRequest,
} from '@talon/contracts';
import type { Tool } from '@talon/tool-runtime';
import { modelOwner, tool } from '../autonomy/autonomy-tools.js';
import { controlPlaneToolDefinition } from '../tools/control-plane-tool-definition.js';
import type { HandCatalog } from './hand-catalog.js';
import type { HandRunService } from './hand-run-service.js';

const ApproveSchema = Type.Object(
  { runId: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);

/**
 * The model's tools over hands. `hand_approve` always asks a person (approval `always`, never granted
 * away): a model cannot approve the runs it asked for; the operator does, in the approval prompt.
 */
export function createHandTools(catalog: HandCatalog, runs: HandRunService): Tool[] {
  const approve: Tool<{ runId: string }> = {
    definition: controlPlaneToolDefinition({
      name: 'hand_approve',
      description: 'Approves a hand run awaiting approval (a person confirms every call).',
      parameters: JSON.parse(JSON.stringify({ properties: ApproveSchema.properties, required: ['runId'] })),
      effects: ['modify_approval'],
      approval: 'always',
      idempotent: true,
    }),
    execute: (params, context) =>
      runs.approve(params.runId, 'approve', `operator via ${modelOwner(context)}`),
  };
  return [
    tool<Record<string, never>>(
      'hand_list',
      'Lists the hands: what each does, its settings, tools and whether it can run here.',
      Type.Object({}),
      false,
      async () => {
        const { hands, rejected } = await catalog.snapshot();
        return {
          hands: hands.map((hand) => ({
            id: hand.id,
            name: hand.name,
            description: hand.description,
            requiresApproval: hand.requiresApproval,
            tools: hand.tools,
            settings: hand.settings.map((setting) => ({
              key: setting.key,
              kind: setting.kind,
              options: setting.options.map((option) => option.value),
            })),
            ready: hand.gating.eligible,
          })),
          rejected: rejected.map((entry) => ({ path: entry.path, reason: entry.reason })),
        };
      },
    ),
    tool<HandsGetRequest>(
      'hand_get',
      'One hand in full: prompt, settings, requirements, metrics.',
      HandsGetRequestSchema,
      false,
      (params) => catalog.require(params.id),
    ),
    tool<HandsExecuteRequest>(
      'hand_execute',
      'Runs a hand (or an activated instance) once with settings and an input; returns the run (awaiting_approval when the hand requires it).',
      HandsExecuteRequestSchema,
      true,
      (params, context) => runs.execute(params, modelOwner(context)),
    ),
    approve,
    tool<HandsCancelRequest>(
      'hand_cancel',
      'Cancels every unfinished run of a hand or instance.',
      HandsCancelRequestSchema,
      true,
      async (params, context) => ({
        runs: await runs.cancelAll(
          {
            ...(params.id ? { hand: params.id } : {}),
            ...(params.instance ? { instance: params.instance } : {}),
          },
          modelOwner(context),
        ),
      }),
    ),
    tool<HandRunIdRequest>(
      'hand_run_status',
      'The state, result or error of one hand run.',
      HandRunIdRequestSchema,
      false,
      (params) => runs.get(params.runId),
    ),
    tool<HandsRunsListRequest>(
      'hand_run_list',
      'Lists hand runs by hand, instance or state.',
      HandsRunsListRequestSchema,
      false,
      async (params) => ({
        runs: await runs.list(params),
      }),
    ),
    tool<HandRunIdRequest>(
      'hand_run_cancel',
      'Cancels one hand run (a running one stops its tool call).',
      HandRunIdRequestSchema,
      true,
      (params, context) => runs.cancel(params.runId, modelOwner(context)),
    ),
  ] as unknown as Tool[];
}
