import { type Hand, type HandSettingValues, type HandSummary, type JobAction } from '@talon/contracts';
import { renderHandSystemPrompt, resolveHandSettings } from '@talon/hands';
import type { PrismaClient } from '@talon/persistence';
import type { ChatService } from '../agent/chat-service.js';
import {
  turnOutcome,
  withInput,
  type JobActionHandler,
  type JobOutcome,
} from '../autonomy/job-action-handlers.js';
import type { HandCatalog } from './hand-catalog.js';
import type { HandMcpServers } from './hand-mcp-servers.js';
import type { HandJobParams, HandRunService } from './hand-run-service.js';

/** The user message of a run with no input of its own. */
const DEFAULT_RUN_MESSAGE = 'Run now: do what your instructions say with the settings chosen for this run.';

/**
 * The `hand` job action: its run (made now if a routine or jobs.create made the job), its MCP servers
 * started, then one agent turn with the hand's rendered prompt and settings as instructions, its workflow
 * steps, its skills mentioned (so selection activates them), and the allowlist — the hand's tools and its
 * servers' tools, narrowed by the job's own `policy.tools` if it names any — offered and enforced at
 * dispatch. A hand that no longer loads fails the run and puts its instance in `error`.
 */
export function createHandJobHandler(
  chat: ChatService,
  catalog: HandCatalog,
  prisma: PrismaClient,
  runs: HandRunService,
  servers: HandMcpServers,
): JobActionHandler {
  return async (context) => {
    const action = context.action as Extract<JobAction, { kind: 'hand' }>;
    const params = (action.params ?? {}) as Partial<HandJobParams>;
    // A hand that no longer loads, or whose settings no longer fit, puts the instance in error.
    const instanceFailed = async (error: unknown): Promise<JobOutcome> => {
      if (params.instance)
        await prisma.handInstance.updateMany({
          where: { name: params.instance, state: 'active' },
          data: { state: 'error', error: (error as Error).message },
        });
      return failed(error);
    };
    let hand: HandSummary;
    try {
      hand = await catalog.require(action.hand);
    } catch (error) {
      return instanceFailed(error);
    }
    let chosen: HandSettingValues;
    let mcpTools: string[];
    try {
      chosen = await runs.begin(context.jobId, hand, params, context.signal);
      if (context.signal.aborted) return { kind: 'interrupted' };
      mcpTools = await servers.activate(hand, context.signal);
    } catch (error) {
      return failed(error);
    }
    let settings: HandSettingValues;
    try {
      settings = resolveHandSettings(hand, chosen);
    } catch (error) {
      return instanceFailed(error);
    }
    const own = context.policy.tools;
    const allowlist = [...new Set([...hand.tools, ...mcpTools])]
      .filter((tool) => own === undefined || own.includes(tool))
      .slice(0, 200);
    let skillParameters: Record<string, Record<string, unknown>>;
    try {
      // A setting whose key a skill declares fills that parameter (one skills listing for all of them); a
      // named skill that is not installed renders nothing and is skipped: the hand runs on its prompt.
      skillParameters = await chat.skillParametersOf(hand.skills, settings, 'hand');
    } catch (error) {
      return failed(error);
    }
    const run = { ...context, policy: { ...context.policy, tools: allowlist } };
    // A routine's trigger input (webhook body, matched chat message, event payload) goes along as data.
    const message = withInput(params.input?.trim() || DEFAULT_RUN_MESSAGE, context.input);
    const outcome = await turnOutcome(chat, run, message, {
      mentionSkills: hand.skills,
      instructions: instructionsOf(hand, settings),
      skillParameters,
    });
    if (outcome.kind === 'completed')
      return { kind: 'completed', result: { hand: hand.id, ...(outcome.result as object) } };
    return outcome;
  };
}

function failed(error: unknown): JobOutcome {
  const failure = error as { code?: string; message?: string };
  return { kind: 'failed', code: failure.code ?? 'INTERNAL', message: failure.message ?? String(error) };
}

/** The hand's prompt with its settings, then its workflow steps in order (ZCLAW `[[hand.workflow]]`). */
function instructionsOf(hand: Hand, settings: HandSettingValues): string {
  const prompt = `# You are running the hand "${hand.name}" (${hand.id})\n\n${renderHandSystemPrompt(hand, settings)}`;
  if (hand.workflow.length === 0) return prompt;
  const steps = hand.workflow.map(
    (step, index) =>
      `${index + 1}. ${step.name}${step.tool ? ` (tool ${step.tool})` : ''}${step.prompt ? `: ${step.prompt}` : ''}`,
  );
  return `${prompt}\n\n## Workflow, in order\n${steps.join('\n')}`;
}
