import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Envelope } from '@talon/contracts';
import {
  natsTokenHeaders,
  createTestDatabase,
  findFreePort,
  REPO_ROOT,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

/** A skill-service and an orchestrator on a private NATS, over three real skill directories in a temp dir. */
export interface SkillStack {
  root: string;
  dirs: { workspace: string; user: string; installed: string };
  client: NatsConnection;
  orchestrator: ServiceProcess;
  skillService: ServiceProcess;
  /** The environment the skill-service was started with (to start another replica like it). */
  skillServiceEnv: Record<string, string>;
  /** The orchestrator's HTTP API, e.g. `http://127.0.0.1:1234`. */
  httpUrl: string;
  /** An operator token for the HTTP API. */
  token: string;
  /** Calls `talon.api.v1.<method>` on the orchestrator. */
  api<T>(method: string, payload?: unknown, timeoutMs?: number): Promise<Envelope<T>>;
  /** Calls `talon.skills.v1.<method>` on the skill-service directly. */
  skills<T>(method: string, payload?: unknown, timeoutMs?: number): Promise<Envelope<T>>;
  /** Writes `<dir>/<name>/SKILL.md`. */
  writeSkill(dir: string, name: string, text: string): Promise<string>;
  stop(): Promise<void>;
}

/** The text of a small SKILL.md. */
export function skillText(
  name: string,
  description: string,
  extra = '',
  body = `# ${name}\n\nSteps for ${name}.\n`,
): string {
  return `---\nname: ${name}\nversion: 1.0.0\ndescription: ${description}\n${extra}---\n${body}`;
}

/** Polls until the predicate holds; returns how long that took. */
export async function waitFor(predicate: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!(await predicate())) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met in ${timeoutMs} ms`);
    await sleep(25);
  }
  return Date.now() - started;
}

/** Lets a test prepare the directories before the skill-service starts. */
export type SeedSkills = (stack: Pick<SkillStack, 'dirs' | 'writeSkill'>) => Promise<void>;

/** Starts NATS, a PostgreSQL test database, the skill-service and the orchestrator. */
export async function startSkillStack(
  seed: SeedSkills,
  extraEnv: Record<string, string> = {},
): Promise<SkillStack> {
  const root = await mkdtemp(join(tmpdir(), 'talon-skills-'));
  const dirs = {
    workspace: join(root, 'workspace'),
    user: join(root, 'user'),
    installed: join(root, 'installed'),
  };
  await Promise.all(Object.values(dirs).map((dir) => mkdir(dir, { recursive: true })));
  const writeSkill = async (dir: string, name: string, text: string) => {
    const file = join(dir, name, 'SKILL.md');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    return file;
  };
  await seed({ dirs, writeSkill });

  let nats: NatsTestServer | undefined;
  let database: TestDatabase | undefined;
  const started: ServiceProcess[] = [];
  let client: NatsConnection | undefined;
  const stop = async () => {
    await client?.close();
    await Promise.all(started.map((service) => service.kill()));
    await nats?.stop();
    await database?.drop();
    await rm(root, { recursive: true, force: true });
  };
  try {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    const skillServiceEnv = {
      NATS_URL: nats.url,
      SKILLS_WORKSPACE_DIR: dirs.workspace,
      SKILLS_DIR: dirs.user,
      SKILLS_INSTALLED_DIR: dirs.installed,
      SKILLS_REGISTRY_DIR: join(REPO_ROOT, 'registry', 'skills'),
      SKILLS_WATCH_DEBOUNCE_MS: '50',
      ...extraEnv,
    };
    const skillService = await startServiceProcess('skill-service', skillServiceEnv);
    started.push(skillService);
    const httpPort = await findFreePort();
    const orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(await findFreePort()),
    });
    started.push(orchestrator);
    client = await nats.connect('orchestrator');
    // Skill subjects are asked as the orchestrator asks them; the public API with the operator token.
    const token = natsTokenHeaders(nats.bootstrapToken);
    const request = async <T>(subject: string, payload: unknown, timeoutMs: number) => {
      const body = typeof payload === 'string' ? payload : JSON.stringify(payload ?? {});
      const headers = subject.startsWith('talon.api.') ? { headers: token } : {};
      return (await client!.request(subject, body, { timeout: timeoutMs, ...headers })).json<Envelope<T>>();
    };
    return {
      root,
      dirs,
      client,
      orchestrator,
      skillService,
      skillServiceEnv,
      httpUrl: `http://127.0.0.1:${httpPort}`,
      token: nats.bootstrapToken,
      api: (method, payload, timeoutMs = 10_000) => request(`talon.api.v1.${method}`, payload, timeoutMs),
      skills: (method, payload, timeoutMs = 10_000) =>
        request(`talon.skills.v1.${method}`, payload, timeoutMs),
      writeSkill,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The data of an ok envelope, or a thrown error naming the code. */
export function dataOf<T>(envelope: Envelope<T>): T {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.data;
}
