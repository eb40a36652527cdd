import { SUBJECTS, type Job, type JobEvent } from '@talon/contracts';
import { formatTable } from '../text-table.js';
import { timeInWords } from '../time-in-words.js';
import { withTalonApi } from '../talon-api-connection.js';

/** `talon jobs --help`. */
export const JOBS_USAGE = `Usage:
  pnpm talon jobs list [--state <state>] [--json]
  pnpm talon jobs show <id> [--json]
  pnpm talon jobs cancel <id>
  pnpm talon jobs follow <id>     (stored events, then live ones until the job ends)
  pnpm talon jobs approvals       (pending approvals of jobs waiting in waiting_approval)
  pnpm talon jobs approve|deny <approval-id>`;

const FINAL = new Set(['completed', 'failed', 'cancelled']);

function describeEvent(event: JobEvent): string {
  const detail = { ...event } as Record<string, unknown>;
  for (const key of ['jobId', 'seq', 'type', 'at']) delete detail[key];
  const text = Object.keys(detail).length > 0 ? ` ${JSON.stringify(detail)}` : '';
  return `${event.at.slice(11, 23)}  #${event.seq}  ${event.type}${text.length > 200 ? `${text.slice(0, 200)}…` : text}`;
}

/** `talon jobs …`: list, show, cancel and follow autonomous jobs. */
export async function jobsCommand(args: readonly string[], print: (line: string) => void): Promise<number> {
  const json = args.includes('--json');
  const rest = args.filter((arg) => arg !== '--json');
  const [action = 'list', id] = rest;
  if (action !== 'list' && action !== 'approvals' && !id) {
    print(JOBS_USAGE);
    return 2;
  }
  return withTalonApi(print, async (call, connection) => {
    switch (action) {
      case 'list': {
        const state = rest[rest.indexOf('--state') + 1];
        const { jobs } = await call<{ jobs: Job[] }>('jobs.list', rest.includes('--state') ? { state } : {});
        if (json) print(JSON.stringify(jobs, null, 2));
        else if (jobs.length === 0) print('no jobs');
        else
          print(
            formatTable([
              ['ID', 'KIND', 'STATE', 'ATTEMPT', 'CREATED', 'ROUTINE', 'ERROR'],
              ...jobs.map((job) => [
                job.id,
                job.kind,
                job.state,
                String(job.attempt),
                timeInWords(new Date(job.createdAt)),
                job.routineId ?? '-',
                job.error ? `${job.error.code}: ${job.error.message}`.slice(0, 60) : '',
              ]),
            ]),
          );
        return 0;
      }
      case 'show': {
        const job = await call<Job>('jobs.get', { id });
        if (json) print(JSON.stringify(job, null, 2));
        else {
          print(`${job.id}  ${job.kind}  ${job.state}  attempt ${job.attempt}`);
          if (job.leaseOwner) print(`  run by ${job.leaseOwner} (lease until ${job.leaseExpiresAt})`);
          if (job.sessionId) print(`  session ${job.sessionId}`);
          if (job.error) print(`  error ${job.error.code}: ${job.error.message}`);
          if (job.result !== undefined) print(`  result ${JSON.stringify(job.result)}`);
        }
        return 0;
      }
      case 'cancel': {
        const job = await call<Job>('jobs.cancel', { id });
        print(FINAL.has(job.state) ? `${id} is ${job.state}` : `cancel requested; ${id} is ${job.state}`);
        return 0;
      }
      case 'follow': {
        let last = 0;
        let done = false;
        // Subscribe first, then read the history, so nothing falls between the two.
        const live: JobEvent[] = [];
        const subscription = connection.subscribe(SUBJECTS.jobEvents(id!), {
          callback: (_error, message) => void live.push(message.json<JobEvent>()),
        });
        const show = (event: JobEvent) => {
          if (event.seq !== undefined && event.seq <= last) return;
          if (event.seq !== undefined) last = event.seq;
          if (event.type !== 'job.text_delta') print(describeEvent(event));
          if (event.type === 'job.finished') done = true;
        };
        const { events } = await call<{ events: JobEvent[] }>('jobs.events', { id });
        events.forEach(show);
        const job = await call<Job>('jobs.get', { id });
        if (FINAL.has(job.state)) done = true;
        while (!done) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          live.splice(0).forEach(show);
        }
        subscription.unsubscribe();
        return 0;
      }
      case 'approvals': {
        const { jobs } = await call<{ jobs: Job[] }>('jobs.list', { state: 'waiting_approval' });
        const rows: string[][] = [['JOB', 'APPROVAL', 'TOOL', 'REASON', 'EXPIRES']];
        for (const job of jobs) {
          if (!job.sessionId) continue;
          const { approvals } = await call<{
            approvals: Array<{ id: string; tool: string; reason: string; expiresAt: string }>;
          }>('approvals.list', { sessionId: job.sessionId });
          for (const approval of approvals)
            rows.push([
              job.id,
              approval.id,
              approval.tool,
              approval.reason.slice(0, 60),
              timeInWords(new Date(approval.expiresAt)),
            ]);
        }
        print(rows.length === 1 ? 'no job waits for an approval' : formatTable(rows));
        return 0;
      }
      case 'approve':
      case 'deny': {
        const record = await call<{ id: string; status: string; tool: string }>('approvals.resolve', {
          id,
          decision: action,
          resolvedBy: 'operator:cli',
        });
        print(`${record.tool}: ${record.status}`);
        return 0;
      }
      default:
        print(JOBS_USAGE);
        return 2;
    }
  });
}
