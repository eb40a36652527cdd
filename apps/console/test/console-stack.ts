import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope } from '@talon/contracts';
import {
  bearerHeaders,
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  waitUntil,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';
import { startOpenAiCompatibleServer, type LlmTestServer } from '../../../libs/llm/test/support/index.js';

const RELEASE_SKILL = `---
name: release-notes
description: Writes release notes from a list of merged changes.
activation:
  keywords: [release notes, changelog]
---
Group the changes by area and lead with what users notice.
`;

/** A real stack for the console: authorised NATS, PostgreSQL, orchestrator, tool-worker, skill-service. */
export interface ConsoleStack {
  nats: NatsTestServer;
  llm: LlmTestServer;
  url: string;
  token: string;
  /** Bodies of the requests the `http` tool made to the local target. */
  targetRequests: string[];
  targetUrl: string;
  api<T>(method: string, payload: unknown, token?: string): Promise<T>;
  close(): Promise<void>;
}

export async function startConsoleStack(): Promise<ConsoleStack> {
  const [nats, database, llm]: [NatsTestServer, TestDatabase, LlmTestServer] = await Promise.all([
    startNatsTestServer(),
    createTestDatabase(),
    startOpenAiCompatibleServer(),
  ]);
  const stateDir = await mkdtemp(join(tmpdir(), 'talon-console-'));
  await mkdir(join(stateDir, 'skills', 'release-notes'), { recursive: true });
  await writeFile(join(stateDir, 'skills', 'release-notes', 'SKILL.md'), RELEASE_SKILL);
  const targetRequests: string[] = [];
  const target: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      targetRequests.push(body);
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ received: true }));
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const targetPort = (target.address() as { port: number }).port;
  const base = { NATS_URL: nats.url, TALON_STATE_DIR: stateDir };
  const httpPort = await findFreePort();
  const services: ServiceProcess[] = await Promise.all([
    startServiceProcess('skill-service', {
      ...base,
      SKILLS_WORKSPACE_DIR: join(stateDir, 'skills'),
      SKILLS_DIR: join(stateDir, 'user-skills'),
      SKILLS_INSTALLED_DIR: join(stateDir, 'installed'),
    }),
    startServiceProcess('tool-worker', { ...base, TALON_SSRF_ALLOWLIST: `127.0.0.1/32@${targetPort}` }),
    startServiceProcess('orchestrator', {
      ...base,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(await findFreePort()),
      TALON_LLM_PROVIDER: 'openai',
      TALON_LLM_BASE_URL: llm.baseURL,
      TALON_LLM_API_KEY: 'test-key',
      TALON_LLM_MODEL: 'test-model',
      TALON_SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
      TALON_APPROVAL_TIMEOUT_MS: '120000',
    }),
  ]);
  const url = `http://127.0.0.1:${httpPort}`;
  const api = async <T>(method: string, payload: unknown, token = nats.bootstrapToken): Promise<T> => {
    const response = await fetch(`${url}/v1/rpc/${method}`, {
      method: 'POST',
      headers: bearerHeaders(token),
      body: JSON.stringify(payload),
    });
    const envelope = (await response.json()) as Envelope<T>;
    if (!envelope.ok) throw Object.assign(new Error(envelope.error.message), envelope.error);
    return envelope.data;
  };
  await waitUntil(
    async () => {
      const tools = await api<{ tools: Array<{ definition: { name: string } }> }>('tools.list', {}).catch(
        () => null,
      );
      return Boolean(tools?.tools.some((tool) => tool.definition.name === 'http'));
    },
    30_000,
    'the tool-worker tools in the catalog',
  );
  return {
    nats,
    llm,
    url,
    token: nats.bootstrapToken,
    targetRequests,
    targetUrl: `http://127.0.0.1:${targetPort}/hook`,
    api,
    async close() {
      await Promise.all(services.map((service) => service.kill()));
      await Promise.all([
        nats.stop(),
        database.drop(),
        llm.close(),
        new Promise((resolve) => target.close(resolve)),
      ]);
      await rm(stateDir, { recursive: true, force: true });
    },
  };
}
