import type { Routine, RoutineFire, RoutinesCreateReply, RoutinesCreateRequest } from '@talon/contracts';
import { ROUTINE_CREATE_USAGE, routineFromFlags } from '../routine-flags.js';
import { formatTable } from '../text-table.js';
import { timeInWords, wallTime } from '../time-in-words.js';
import { withTalonApi } from '../talon-api-connection.js';

/** `talon routines --help`. */
export const ROUTINES_USAGE = `Usage:
  pnpm talon routines list [--json]
  ${ROUTINE_CREATE_USAGE}
  pnpm talon routines pause|resume|fire <id>
  pnpm talon routines history <id> [--json]`;

function triggerText(routine: Routine): string {
  const trigger = routine.trigger;
  switch (trigger.kind) {
    case 'cron':
      return `cron ${trigger.expression}`;
    case 'interval':
      return `every ${trigger.everyMs / 1000}s`;
    case 'once':
      return `once ${trigger.at}`;
    case 'event':
      return `message /${trigger.pattern}/`;
    case 'system_event':
      return `event ${trigger.name}`;
    default:
      return trigger.kind;
  }
}

function zoneOf(routine: Routine): string {
  return routine.trigger.kind === 'cron' ? (routine.trigger.timezone ?? 'UTC') : 'UTC';
}

/** `talon routines …`: list (next fire in words and in the routine's timezone), create, pause, resume, fire, history. */
export async function routinesCommand(
  args: readonly string[],
  print: (line: string) => void,
): Promise<number> {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const [action = 'list', id] = rest;
  if (['pause', 'resume', 'fire', 'history'].includes(action) && !id) {
    print(ROUTINES_USAGE);
    return 2;
  }
  let request: RoutinesCreateRequest | undefined;
  if (action === 'create') {
    try {
      request = routineFromFlags(rest.slice(1));
    } catch (error) {
      print(`${(error as Error).message}\n\n${ROUTINES_USAGE}`);
      return 2;
    }
  }
  return withTalonApi(print, async (call) => {
    switch (action) {
      case 'list': {
        const { routines } = await call<{ routines: Routine[] }>('routines.list', {});
        if (json) print(JSON.stringify(routines, null, 2));
        else if (routines.length === 0) print('no routines');
        else
          print(
            formatTable([
              ['ID', 'NAME', 'TRIGGER', 'STATE', 'NEXT FIRE', 'FAILURES'],
              ...routines.map((routine) => [
                routine.id,
                routine.name.slice(0, 40),
                triggerText(routine),
                routine.state === 'disabled'
                  ? `disabled: ${routine.disabledReason ?? ''}`.slice(0, 50)
                  : routine.state,
                routine.nextFireAt
                  ? `${timeInWords(new Date(routine.nextFireAt))} (${wallTime(new Date(routine.nextFireAt), zoneOf(routine))})`
                  : '-',
                String(routine.consecutiveFailures),
              ]),
            ]),
          );
        return 0;
      }
      case 'create': {
        const reply = await call<RoutinesCreateReply>('routines.create', request);
        if (json) print(JSON.stringify(reply, null, 2));
        else {
          const { routine } = reply;
          print(`created ${routine.id} (${routine.name})`);
          if (routine.nextFireAt)
            print(
              `next fire ${timeInWords(new Date(routine.nextFireAt))}, ${wallTime(new Date(routine.nextFireAt), zoneOf(routine))}`,
            );
          if (reply.webhookSecret)
            print(`webhook POST ${routine.webhookPath} signed with ${reply.webhookSecret} (shown once)`);
        }
        return 0;
      }
      case 'pause':
      case 'resume': {
        const routine = await call<Routine>(`routines.${action}`, { id });
        print(`${routine.id} is ${routine.state}`);
        return 0;
      }
      case 'fire': {
        const fire = await call<RoutineFire>('routines.fire', { id });
        print(fire.outcome === 'enqueued' ? `fired: job ${fire.jobId}` : `skipped: ${fire.reason}`);
        return fire.outcome === 'enqueued' ? 0 : 1;
      }
      case 'history': {
        const { fires } = await call<{ fires: RoutineFire[] }>('routines.history', { id });
        if (json) print(JSON.stringify(fires, null, 2));
        else if (fires.length === 0) print('no fires yet');
        else
          print(
            formatTable([
              ['SLOT', 'SOURCE', 'CLAIMED BY', 'JOB', 'OUTCOME', 'DURATION', 'REASON'],
              ...fires.map((fire) => [
                fire.slotAt,
                fire.source,
                fire.claimedBy,
                fire.jobId ?? '-',
                fire.outcome,
                fire.durationMs === undefined ? '' : `${fire.durationMs} ms`,
                (fire.reason ?? '').slice(0, 60),
              ]),
            ]),
          );
        return 0;
      }
      default:
        print(ROUTINES_USAGE);
        return 2;
    }
  });
}
