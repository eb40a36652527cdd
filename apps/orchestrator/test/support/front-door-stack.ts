import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { TALON_PROTO_PATH, type Envelope } from '@talon/contracts';
import {
  bearerHeaders,
  connectTalonApi,
  findFreePort,
  startServiceProcess,
  type NatsTestServer,
  type ServiceProcess,
} from '@talon/testing';

/** One orchestrator of the front-door suites and the three ways to call it. */
export interface OrchestratorUnderTest {
  process: ServiceProcess;
  httpUrl: string;
  grpcPort: number;
  /** `POST /v1/rpc/<method>` with a token (or none). */
  http<T>(method: string, payload: unknown, token?: string): Promise<{ status: number; body: Envelope<T> }>;
  /** gRPC `Call` with `authorization` metadata (or none). */
  grpc<T>(method: string, payload: unknown, token?: string): Promise<Envelope<T>>;
  /** `talon.api.v1.<method>` over NATS as the api user, with a `talon-token` header (or none). */
  nats<T>(method: string, payload: unknown, token?: string): Promise<Envelope<T>>;
  close(): Promise<void>;
}

type GrpcCallReply = {
  ok: boolean;
  data_json?: string;
  error?: { code: string; message: string; details_json: string };
};

/** Starts an orchestrator on the given bus and database with free HTTP and gRPC ports. */
export async function startOrchestratorUnderTest(
  nats: NatsTestServer,
  env: Record<string, string>,
): Promise<OrchestratorUnderTest> {
  const httpPort = await findFreePort();
  const grpcPort = await findFreePort();
  const process = await startServiceProcess('orchestrator', {
    NATS_URL: nats.url,
    TALON_HTTP_PORT: String(httpPort),
    TALON_GRPC_PORT: String(grpcPort),
    ...env,
  });
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  const definition = protoLoader.loadSync(TALON_PROTO_PATH, { keepCase: true, defaults: true });
  const proto = grpc.loadPackageDefinition(definition) as unknown as {
    talon: { v1: { Talon: grpc.ServiceClientConstructor } };
  };
  const grpcClient = new proto.talon.v1.Talon(
    `127.0.0.1:${grpcPort}`,
    grpc.credentials.createInsecure(),
  ) as unknown as grpc.Client & {
    Call(
      request: object,
      metadata: grpc.Metadata,
      callback: (error: Error | null, reply: GrpcCallReply) => void,
    ): void;
  };
  const clients = new Map<string, Awaited<ReturnType<typeof connectTalonApi>>>();
  const natsClient = async (token: string | undefined) => {
    const key = token ?? '';
    if (!clients.has(key)) clients.set(key, await connectTalonApi(nats.url, { token: token ?? null }));
    return clients.get(key)!;
  };
  return {
    process,
    httpUrl,
    grpcPort,
    async http<T>(method: string, payload: unknown, token?: string) {
      const response = await fetch(`${httpUrl}/v1/rpc/${method}`, {
        method: 'POST',
        headers: token ? bearerHeaders(token) : { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
      return { status: response.status, body: (await response.json()) as Envelope<T> };
    },
    grpc<T>(method: string, payload: unknown, token?: string) {
      const metadata = new grpc.Metadata();
      if (token) metadata.set('authorization', `Bearer ${token}`);
      return new Promise<Envelope<T>>((resolve, reject) =>
        grpcClient.Call({ method, payload_json: JSON.stringify(payload) }, metadata, (error, reply) => {
          if (error) return reject(error);
          resolve(
            reply.ok
              ? { ok: true, data: JSON.parse(reply.data_json || 'null') as T }
              : { ok: false, error: { code: reply.error!.code as never, message: reply.error!.message } },
          );
        }),
      );
    },
    async nats<T>(method: string, payload: unknown, token?: string) {
      return (await natsClient(token)).call<T>(method, payload, 10_000);
    },
    async close() {
      grpcClient.close();
      await Promise.all([...clients.values()].map((client) => client.close()));
      await process.stop();
    },
  };
}
