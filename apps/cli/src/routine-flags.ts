import type { Guardrails, JobAction, JobPolicy, RoutinesCreateRequest, Trigger } from '@talon/contracts';
import { parseDuration } from './time-in-words.js';

/** The flags of `talon routines create`. */
export const ROUTINE_CREATE_USAGE = `pnpm talon routines create --name <name>
    trigger: --cron "<expr>" [--tz <IANA zone>] | --every <30s|5m|2h> | --at <ISO instant>
             | --event <regex> | --system-event <name> | --webhook | --manual
    action:  --prompt <text> | --tool <name> [--params <json>] | --skill <name> | --reminder <text>
    guards:  [--cooldown <duration>] [--max-concurrent <n>] [--dedup <duration>]
             [--catch-up skip|once|all] [--max-failures <n>] [--on-approval deny|wait] [--paused]`;

/** Builds a `routines.create` request from command-line flags; throws a readable error on bad flags. */
export function routineFromFlags(args: readonly string[]): RoutinesCreateRequest {
  const flags = new Map<string, string>();
  const switches = new Set(['--webhook', '--manual', '--paused']);
  for (let index = 0; index < args.length; index++) {
    const flag = args[index]!;
    if (!flag.startsWith('--')) throw new Error(`Unexpected "${flag}".`);
    if (switches.has(flag)) flags.set(flag, 'true');
    else {
      const value = args[++index];
      if (value === undefined) throw new Error(`${flag} needs a value.`);
      flags.set(flag, value);
    }
  }
  const name = flags.get('--name');
  if (!name) throw new Error('--name is required.');
  const triggers: Trigger[] = [];
  if (flags.has('--cron'))
    triggers.push({
      kind: 'cron',
      expression: flags.get('--cron')!,
      ...(flags.has('--tz') ? { timezone: flags.get('--tz')! } : {}),
    });
  if (flags.has('--every'))
    triggers.push({ kind: 'interval', everyMs: parseDuration(flags.get('--every')!) });
  if (flags.has('--at')) triggers.push({ kind: 'once', at: flags.get('--at')! });
  if (flags.has('--event')) triggers.push({ kind: 'event', pattern: flags.get('--event')! });
  if (flags.has('--system-event'))
    triggers.push({ kind: 'system_event', name: flags.get('--system-event')! });
  if (flags.has('--webhook')) triggers.push({ kind: 'webhook' });
  if (flags.has('--manual')) triggers.push({ kind: 'manual' });
  if (triggers.length !== 1) throw new Error('Give exactly one trigger flag.');
  const actions: JobAction[] = [];
  if (flags.has('--prompt')) actions.push({ kind: 'prompt', prompt: flags.get('--prompt')! });
  if (flags.has('--tool')) {
    let params: Record<string, unknown> | undefined;
    if (flags.has('--params')) {
      try {
        params = JSON.parse(flags.get('--params')!) as Record<string, unknown>;
      } catch {
        throw new Error('--params must be a JSON object.');
      }
    }
    actions.push({ kind: 'tool', tool: flags.get('--tool')!, ...(params ? { params } : {}) });
  }
  if (flags.has('--skill')) actions.push({ kind: 'skill', skill: flags.get('--skill')! });
  if (flags.has('--reminder')) actions.push({ kind: 'reminder', text: flags.get('--reminder')! });
  if (actions.length !== 1) throw new Error('Give exactly one action flag.');
  const guardrails: Guardrails = {};
  if (flags.has('--cooldown')) guardrails.cooldownMs = parseDuration(flags.get('--cooldown')!);
  if (flags.has('--dedup')) guardrails.dedupWindowMs = parseDuration(flags.get('--dedup')!);
  if (flags.has('--max-concurrent')) guardrails.maxConcurrent = Number(flags.get('--max-concurrent'));
  if (flags.has('--max-failures')) guardrails.maxConsecutiveFailures = Number(flags.get('--max-failures'));
  if (flags.has('--catch-up')) {
    const policy = flags.get('--catch-up')!;
    if (policy !== 'skip' && policy !== 'once' && policy !== 'all')
      throw new Error('--catch-up is skip, once or all.');
    guardrails.catchUp = policy;
  }
  const policy: JobPolicy = {};
  if (flags.has('--on-approval')) {
    const mode = flags.get('--on-approval')!;
    if (mode !== 'deny' && mode !== 'wait') throw new Error('--on-approval is deny or wait.');
    policy.onApproval = mode;
  }
  return {
    name,
    trigger: triggers[0]!,
    action: actions[0]!,
    ...(Object.keys(policy).length > 0 ? { policy } : {}),
    ...(Object.keys(guardrails).length > 0 ? { guardrails } : {}),
    ...(flags.has('--paused') ? { paused: true } : {}),
  };
}
