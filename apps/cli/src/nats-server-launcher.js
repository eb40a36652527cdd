import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
const SEARCH_PATH = [
    ...(process.env.PATH ?? '').split(':'),
    '/usr/sbin',
    '/usr/local/sbin',
    '/usr/local/bin',
];
/** Whether something accepts TCP connections at host:port. */
export function isListening(host, port, timeoutMs = 500) {
    return new Promise((resolve) => {
        const socket = connect({ host, port });
        const done = (result) => {
            socket.destroy();
            resolve(result);
        };
        socket.setTimeout(timeoutMs, () => done(false));
        socket.once('connect', () => done(true));
        socket.once('error', () => done(false));
    });
}
/** Finds a nats-server binary on PATH or in the usual sbin folders. */
export function findNatsServer() {
    return SEARCH_PATH.map((dir) => join(dir, 'nats-server')).find((candidate) => existsSync(candidate));
}
/** Installs nats-server from Debian's packages when that is possible here (Debian, root). */
export function installNatsServer(print) {
    const isDebian = existsSync('/etc/debian_version');
    const isRoot = process.getuid?.() === 0;
    if (!isDebian || !isRoot)
        return false;
    print('nats-server is not installed; installing the Debian package (apt-get install nats-server)…');
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', 'nats-server'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    return update.status === 0 && install.status === 0;
}
/** Starts nats-server with JetStream and its store under `stateDir`; resolves once it accepts connections. */
export async function launchNatsServer(binary, host, port, stateDir) {
    const storeDir = join(stateDir, 'nats');
    mkdirSync(storeDir, { recursive: true });
    const child = spawn(binary, ['-a', host, '-p', String(port), '-js', '-sd', storeDir], {
        stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk) => (stderr += chunk.toString()));
    for (let attempt = 0; attempt < 100; attempt++) {
        if (child.exitCode !== null)
            throw new Error(`nats-server exited with ${child.exitCode}: ${stderr}`);
        if (await isListening(host, port, 200))
            return child;
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    child.kill();
    throw new Error(`nats-server did not listen on ${host}:${port} within 10 s: ${stderr}`);
}
