import { resolve } from 'node:path';
import { findNatsServer, installNatsServer, isListening, launchNatsServer } from '../nats-server-launcher.js';
import { REPO_ROOT } from '../repo-root.js';
import { ServiceSupervisor } from '../service-supervisor.js';
const SERVICES = ['skill-service', 'tool-worker', 'wasm-runner', 'orchestrator'];
/**
 * `talon up`: NATS (started here when none answers), then the four services on embedded defaults
 * (PGlite and a local state directory). Ctrl-C stops everything, services first so they drain.
 */
export async function upCommand(print) {
    const natsUrl = new URL(process.env.NATS_URL || 'nats://127.0.0.1:4222');
    const natsHost = natsUrl.hostname;
    const natsPort = Number(natsUrl.port || 4222);
    const stateDir = resolve(process.env.TALON_STATE_DIR || resolve(REPO_ROOT, '.talon', 'state'));
    let nats;
    if (await isListening(natsHost, natsPort)) {
        print(`Using the NATS server already running at ${natsUrl.href}`);
    }
    else {
        let binary = findNatsServer();
        if (!binary && installNatsServer(print))
            binary = findNatsServer();
        if (!binary) {
            print('No NATS server answers and nats-server is not installed.');
            print('Install it (Debian: `sudo apt-get install nats-server`; elsewhere: https://docs.nats.io) or set NATS_URL, then run `pnpm talon up` again.');
            return 1;
        }
        print(`Starting ${binary} with JetStream on ${natsHost}:${natsPort} (store: ${stateDir}/nats)`);
        nats = await launchNatsServer(binary, natsHost, natsPort, stateDir);
    }
    const env = {
        ...process.env,
        NATS_URL: natsUrl.href.replace(/\/$/, ''),
        TALON_STATE_DIR: stateDir,
        TALON_WORKSPACE_DIR: process.env.TALON_WORKSPACE_DIR || resolve(stateDir, 'workspace'),
    };
    const supervisor = new ServiceSupervisor(env, print);
    let stopping = false;
    const stop = async () => {
        if (stopping)
            return;
        stopping = true;
        print('Stopping Talon…');
        await supervisor.stopAll();
        nats?.kill('SIGTERM');
        print('Stopped.');
    };
    process.once('SIGINT', () => void stop().then(() => process.exit(0)));
    process.once('SIGTERM', () => void stop().then(() => process.exit(0)));
    try {
        for (const service of SERVICES)
            await supervisor.start(service);
    }
    catch (error) {
        print(`Talon did not start: ${error.message}`);
        await stop();
        return 1;
    }
    const httpPort = env.TALON_HTTP_PORT || '8080';
    const grpcPort = env.TALON_GRPC_PORT || '50051';
    print('');
    print('Talon is up.');
    print(`  NATS API   ${env.NATS_URL}  (subjects talon.api.v1.<method>)`);
    print(`  HTTP API   http://${env.TALON_HTTP_HOST || '127.0.0.1'}:${httpPort}/v1/rpc/<method>`);
    print(`  gRPC API   ${env.TALON_GRPC_HOST || '127.0.0.1'}:${grpcPort}  (talon.v1.Talon)`);
    print(`  Database   ${env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${stateDir}/pglite`}`);
    print('Try `pnpm talon status` in another terminal. Ctrl-C stops everything.');
    await new Promise(() => undefined);
    return 0;
}
