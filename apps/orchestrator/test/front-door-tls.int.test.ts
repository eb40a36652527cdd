import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { TALON_PROTO_PATH } from '@talon/contracts';
import {
  createTestDatabase,
  findFreePort,
  startNatsTestServer,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
  type TestDatabase,
} from '@talon/testing';

/** GET over HTTPS trusting only `ca`. */
function httpsGet(url: string, ca: Buffer, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { ca, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('TLS on the HTTP and gRPC surfaces', () => {
  let nats: NatsTestServer;
  let database: TestDatabase;
  let orchestrator: ServiceProcess;
  let dir: string;
  let cert: Buffer;
  let httpPort: number;
  let grpcPort: number;

  beforeAll(async () => {
    [nats, database] = await Promise.all([startNatsTestServer(), createTestDatabase()]);
    dir = await mkdtemp(join(tmpdir(), 'talon-tls-'));
    // A self-signed certificate for 127.0.0.1, made with the system's openssl.
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    cert = await readFile(join(dir, 'cert.pem'));
    httpPort = await findFreePort();
    grpcPort = await findFreePort();
    orchestrator = await startServiceProcess('orchestrator', {
      NATS_URL: nats.url,
      DATABASE_URL: database.url,
      TALON_HTTP_PORT: String(httpPort),
      TALON_GRPC_PORT: String(grpcPort),
      TALON_HTTP_TLS_CERT: join(dir, 'cert.pem'),
      TALON_HTTP_TLS_KEY: join(dir, 'key.pem'),
      TALON_GRPC_TLS_CERT: join(dir, 'cert.pem'),
      TALON_GRPC_TLS_KEY: join(dir, 'key.pem'),
    });
  }, 60_000);

  afterAll(async () => {
    await orchestrator?.stop();
    await Promise.all([nats?.stop(), database?.drop()]);
    await rm(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with the configured certificate, tokens still required', async () => {
    const ok = await httpsGet(`https://127.0.0.1:${httpPort}/v1/system/status`, cert, nats.bootstrapToken);
    expect(ok.status).toBe(200);
    const refused = await httpsGet(
      `https://127.0.0.1:${httpPort}/v1/system/status`,
      cert,
      'talon_wrong-token-0123456789abcdefghijklmn',
    );
    expect(refused.status).toBe(401);
    expect(
      orchestrator.logs.some(
        (line) => line.msg === 'api listening' && String(line.http).startsWith('https://'),
      ),
    ).toBe(true);
  });

  it('serves gRPC over TLS', async () => {
    const proto = grpc.loadPackageDefinition(
      protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true }),
    ) as unknown as {
      talon: { v1: { Talon: grpc.ServiceClientConstructor } };
    };
    const client = new proto.talon.v1.Talon(
      `127.0.0.1:${grpcPort}`,
      grpc.credentials.createSsl(cert),
    ) as unknown as grpc.Client & {
      GetSystemStatus(
        request: object,
        metadata: grpc.Metadata,
        callback: (error: Error | null, reply: { services: unknown[] }) => void,
      ): void;
    };
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${nats.bootstrapToken}`);
    const reply = await new Promise<{ services: unknown[] }>((resolve, reject) =>
      client.GetSystemStatus({}, metadata, (error, value) => (error ? reject(error) : resolve(value))),
    );
    expect(reply.services.length).toBe(4);
    client.close();
  });
});
