import type { HandInstancesReply, HandRun, HandsListReply, HandSummary } from '@talon/contracts';
import { formatTable } from '../text-table.js';
import { timeInWords } from '../time-in-words.js';
import { withTalonApi, type ApiCall } from '../talon-api-connection.js';
import { formatHand, formatHandsTable } from '../hands-table.js';

/** `talon hands --help`. */
export const HANDS_USAGE = `Usage:
  pnpm talon hands [list] [--json]                    the hands, whether each is ready, and the refused files
  pnpm talon hands show <id> [--json]                 one hand: settings, requirements, metrics
  pnpm talon hands run <id> [--input <text>] [--set key=value …] [--instance <name>] [--wait] [--json]
  pnpm talon hands approve|deny <run-id>              decide a run awaiting approval (operator)
  pnpm talon hands cancel <id>                        cancel every unfinished run of a hand
  pnpm talon hands activate <id> <name> [--set key=value …]
  pnpm talon hands pause|resume|delete <name>         an instance's lifecycle
  pnpm talon hands instances [--json]                 activated instances with their dashboard metrics
  pnpm talon hands runs [--hand <id>] [--state <state>] [--json]
  pnpm talon hands runs show|cancel <run-id> [--json]`;

const FINAL = new Set(['completed', 'failed', 'cancelled', 'denied']);

/** The value after a flag, and every `--set key=value` as settings (`true`/`false` become toggles). */
function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function settingsOf(args: readonly string[]): Record<string, string | boolean> | undefined {
  const settings: Record<string, string | boolean> = {};
  args.forEach((arg, index) => {
    if (arg !== '--set') return;
    const pair = args[index + 1] ?? '';
    const eq = pair.indexOf('=');
    if (eq <= 0) return;
    const value = pair.slice(eq + 1);
    settings[pair.slice(0, eq)] = value === 'true' ? true : value === 'false' ? false : value;
  });
  return Object.keys(settings).length > 0 ? settings : undefined;
}

/** Words that are not flag values: the command's positional arguments. */
function positional(args: readonly string[]): string[] {
  const valued = new Set(['--input', '--set', '--instance', '--hand', '--state']);
  return args.filter((arg, index) => !arg.startsWith('--') && !valued.has(args[index - 1] ?? ''));
}

function runsTable(runs: readonly HandRun[]): string {
  if (runs.length === 0) return 'no runs';
  return formatTable([
    ['RUN', 'HAND', 'INSTANCE', 'STATE', 'CREATED', 'ERROR'],
    ...runs.map((run) => [
      run.id,
      run.hand,
      run.instance ?? '-',
      run.state,
      timeInWords(new Date(run.createdAt)),
      run.error ? `${run.error.code}: ${run.error.message}`.slice(0, 60) : '',
    ]),
  ]);
}

function describeRun(run: HandRun): string {
  const lines = [`${run.id}  ${run.hand}${run.instance ? ` (${run.instance})` : ''}  ${run.state}`];
  if (run.approvalDeadline && run.state === 'awaiting_approval')
    lines.push(`  awaiting approval until ${run.approvalDeadline}: pnpm talon hands approve ${run.id}`);
  if (run.error) lines.push(`  error ${run.error.code}: ${run.error.message}`);
  const content = (run.result as { content?: string } | undefined)?.content;
  if (content) lines.push('', content);
  return lines.join('\n');
}

async function waitForRun(call: ApiCall, run: HandRun): Promise<HandRun> {
  let current = run;
  while (!FINAL.has(current.state) && current.state !== 'awaiting_approval') {
    await new Promise((resolve) => setTimeout(resolve, 500));
    current = await call<HandRun>('hands.runs.get', { runId: current.id });
  }
  return current;
}

/** `talon hands …`: list and show hands, run them, decide approvals, manage instances and runs. */
export async function handsCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  const json = args.includes('--json');
  const words = positional(args);
  const [action = 'list', first, second] = words;
  const needs: Record<string, number> = {
    list: 0,
    show: 1,
    run: 1,
    approve: 1,
    deny: 1,
    cancel: 1,
    activate: 2,
    pause: 1,
    resume: 1,
    delete: 1,
    instances: 0,
    runs: 0,
  };
  const needed = needs[action];
  if (needed === undefined || Math.max(0, words.length - 1) < needed) {
    print(HANDS_USAGE);
    return 2;
  }
  const out = (value: unknown, text: () => string): void =>
    print(json ? JSON.stringify(value, null, 2) : text());
  return withTalonApi(print, async (call) => {
    switch (action) {
      case 'list': {
        const reply = await call<HandsListReply>('hands.list', {});
        out(reply, () => formatHandsTable(reply));
        return 0;
      }
      case 'show': {
        const hand = await call<HandSummary>('hands.get', { id: first });
        out(hand, () => formatHand(hand));
        return 0;
      }
      case 'run': {
        const input = flag(args, '--input');
        const instance = flag(args, '--instance');
        const settings = settingsOf(args);
        let run = await call<HandRun>('hands.execute', {
          ...(instance ? { instance } : { id: first }),
          ...(instance && first !== instance ? { id: first } : {}),
          ...(input ? { input } : {}),
          ...(settings ? { settings } : {}),
        });
        if (args.includes('--wait')) run = await waitForRun(call, run);
        out(run, () => describeRun(run));
        return run.state === 'failed' ? 1 : 0;
      }
      case 'approve':
      case 'deny': {
        const run = await call<HandRun>('hands.approve', { runId: first, decision: action });
        out(run, () => describeRun(run));
        return 0;
      }
      case 'cancel': {
        const reply = await call<{ runs: HandRun[] }>('hands.cancel', { id: first });
        out(reply, () => (reply.runs.length === 0 ? 'nothing to cancel' : runsTable(reply.runs)));
        return 0;
      }
      case 'activate': {
        const settings = settingsOf(args);
        const instance = await call<unknown>('hands.activate', {
          id: first,
          name: second,
          ...(settings ? { settings } : {}),
        });
        out(instance, () => `${second} (${first}) is active`);
        return 0;
      }
      case 'pause':
      case 'resume':
      case 'delete': {
        const instance = await call<{ name: string; state: string }>(`hands.${action}`, { name: first });
        out(instance, () => `${instance.name} is ${instance.state}`);
        return 0;
      }
      case 'instances': {
        const reply = await call<HandInstancesReply>('hands.instances', {});
        out(reply, () =>
          reply.instances.length === 0
            ? 'no instances; activate one with pnpm talon hands activate <id> <name>'
            : formatTable([
                ['NAME', 'HAND', 'STATE', 'METRICS'],
                ...reply.instances.map((instance) => [
                  instance.name,
                  instance.hand,
                  instance.state + (instance.error ? ` (${instance.error.slice(0, 40)})` : ''),
                  instance.metrics
                    .map((metric) => `${metric.label}: ${metric.value?.split('\n')[0]?.slice(0, 30) ?? '-'}`)
                    .join('; '),
                ]),
              ]),
        );
        return 0;
      }
      default: {
        // runs
        if (first === 'show' || first === 'cancel') {
          if (!second) {
            print(HANDS_USAGE);
            return 2;
          }
          const run = await call<HandRun>(first === 'show' ? 'hands.runs.get' : 'hands.runs.cancel', {
            runId: second,
          });
          out(run, () => describeRun(run));
          return 0;
        }
        const hand = flag(args, '--hand');
        const state = flag(args, '--state');
        const reply = await call<{ runs: HandRun[] }>('hands.runs.list', {
          ...(hand ? { hand } : {}),
          ...(state ? { state } : {}),
        });
        out(reply, () => runsTable(reply.runs));
        return 0;
      }
    }
  });
}
