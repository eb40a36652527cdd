import { describe, expect, it } from '@jest/globals';
import { MAX_TOOL_TIMEOUT_MS, NATS_PERMISSIONS, NATS_USERS, REPLY_WINDOW_MS } from '@talon/contracts';
import { generateNatsCredentials } from './nats-credentials.js';
import { natsPasswordEnvName, renderNatsServerConfig } from './nats-server-config.js';

describe('renderNatsServerConfig', () => {
  it('writes one user per Talon NATS user with the permissions of the table', () => {
    const credentials = generateNatsCredentials();
    const config = renderNatsServerConfig({
      port: 4222,
      jetStreamDir: '/tmp/js',
      passwords: Object.fromEntries(NATS_USERS.map((user) => [user, { value: credentials[user] }])) as never,
    });
    for (const user of NATS_USERS) {
      expect(config).toContain(`user: "${user}"`);
      expect(config).toContain(`password: "${credentials[user]}"`);
    }
    expect(config).toContain(
      `subscribe: { allow: ${JSON.stringify(NATS_PERMISSIONS['tool-worker'].subscribe).replace(/","/g, '", "')} }`,
    );
    expect(config).toContain('store_dir: "/tmp/js"');
    // The skill-service publishes nothing but replies and its own shared-state bucket.
    for (const subject of NATS_PERMISSIONS['skill-service'].publish)
      expect(subject.startsWith('$JS.API.') || subject === '$KV.talon_skills.>').toBe(true);
  });

  it('lets services answer each request once, and the orchestrator answer on static grants only', () => {
    const config = renderNatsServerConfig({
      passwords: Object.fromEntries(
        NATS_USERS.map((user) => [user, { env: natsPasswordEnvName(user) }]),
      ) as never,
    });
    // One block per user, in table order: which of them may answer through `allow_responses`.
    const blocks = config.split(/\n {4}\{\n/).slice(1);
    const answering = Object.fromEntries(
      blocks.map((block) => [/user: "([^"]+)"/.exec(block)![1], block.includes('allow_responses')]),
    );
    expect(answering).toEqual({
      orchestrator: false,
      'skill-service': true,
      'tool-worker': true,
      'wasm-runner': true,
      api: false,
    });
    // One reply per request (an allowance left unused stays in the server), for longer than any tool call
    // may run (nats-server's default window is two minutes).
    expect(config.match(/allow_responses: \{ max: 1, expires: "660s" \}/g)).toHaveLength(3);
    expect(config).not.toMatch(/allow_responses: true/);
    expect(REPLY_WINDOW_MS).toBeGreaterThan(MAX_TOOL_TIMEOUT_MS + 250);
    // The orchestrator reaches the callers' and every service's inbox without it; workers acknowledge
    // long calls on the ack subjects.
    for (const inbox of [
      '_INBOX.>',
      '_INBOX_tool-worker.>',
      '_INBOX_wasm-runner.>',
      '_INBOX_skill-service.>',
    ])
      expect(NATS_PERMISSIONS.orchestrator.publish).toContain(inbox);
    // Without `allow_responses` the orchestrator answers JetStream's flow control on a grant.
    expect(NATS_PERMISSIONS.orchestrator.publish).toContain('$JS.FC.>');
    expect(NATS_PERMISSIONS['tool-worker'].publish).toContain('talon.tools.v1.ack.>');
    expect(NATS_PERMISSIONS['wasm-runner'].publish).toContain('talon.tools.v1.ack.>');
    expect(NATS_PERMISSIONS['tool-worker'].publish.some((subject) => subject.startsWith('_INBOX'))).toBe(
      false,
    );
  });

  it('references environment variables for compose', () => {
    const config = renderNatsServerConfig({
      passwords: Object.fromEntries(
        NATS_USERS.map((user) => [user, { env: natsPasswordEnvName(user) }]),
      ) as never,
    });
    expect(config).toContain('password: $TALON_NATS_PASSWORD_TOOL_WORKER');
    expect(config).toContain('password: $TALON_NATS_PASSWORD_API');
  });

  it('gives each worker JetStream access to its own buckets only', () => {
    for (const user of NATS_USERS.filter((name) => name !== 'orchestrator')) {
      for (const subject of NATS_PERMISSIONS[user].publish) {
        expect(['$JS.API.>', '$KV.>', '$O.>', '$JS.>']).not.toContain(subject);
        if (subject.startsWith('$JS.API.') && subject !== '$JS.API.INFO')
          expect(subject).toMatch(/\.(KV|OBJ)_talon_[a-z_]+(\.>)?$/);
      }
    }
    // The tool-worker's only JetStream access: the object store of results too large for a reply.
    expect(
      NATS_PERMISSIONS['tool-worker'].publish.filter(
        (subject) => subject.startsWith('$') && subject !== '$JS.API.INFO',
      ),
    ).toEqual(expect.arrayContaining([expect.stringContaining('talon_tool_results')]));
    for (const subject of NATS_PERMISSIONS['tool-worker'].publish.filter((name) => name.startsWith('$')))
      expect(
        subject === '$JS.API.INFO' ||
          subject.includes('talon_tool_results') ||
          subject.includes('KV_talon_mcp_servers'),
      ).toBe(true);
    // Workers, runners and skill-services follow the MCP servers added with mcp.add but cannot write one.
    for (const user of ['tool-worker', 'wasm-runner', 'skill-service'] as const) {
      expect(NATS_PERMISSIONS[user].publish).toContain('$JS.API.CONSUMER.CREATE.KV_talon_mcp_servers.>');
      expect(NATS_PERMISSIONS[user].publish).not.toContain('$KV.talon_mcp_servers.>');
    }
    expect(NATS_PERMISSIONS['skill-service'].publish.some((subject) => subject.includes('wasm'))).toBe(false);
    expect(NATS_PERMISSIONS['wasm-runner'].publish.some((subject) => subject.includes('skills'))).toBe(false);
  });

  it('gives no worker and no caller the secrets subjects', () => {
    for (const user of NATS_USERS.filter((name) => name !== 'orchestrator')) {
      const { publish, subscribe } = NATS_PERMISSIONS[user];
      for (const subject of [...publish, ...subscribe]) {
        expect(subject.startsWith('talon.secrets.')).toBe(false);
        expect(subject === '>' || subject === 'talon.>').toBe(false);
      }
    }
  });
});
