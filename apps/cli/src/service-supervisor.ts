import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { serviceEntry, serviceNodeOptions } from '@talon/service-runtime';
import { REPO_ROOT } from './repo-root.js';

/** One supervised service process. */
interface Supervised {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
}

const COLORS = ['\x1b[36m', '\x1b[35m', '\x1b[33m', '\x1b[32m', '\x1b[34m'];

/**
 * Runs the services as child processes of `talon up`, prints their JSON logs as readable lines,
 * and stops them all with SIGTERM (so they drain) when asked.
 */
export class ServiceSupervisor {
  private readonly services: Supervised[] = [];

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly print: (line: string) => void,
    /** Environment of one service on top of the shared one (its own NATS credentials). */
    private readonly envFor: (name: string) => NodeJS.ProcessEnv = () => ({}),
  ) {}

  start(name: string): Promise<void> {
    const color = COLORS[this.services.length % COLORS.length];
    const env = { ...this.env, ...this.envFor(name) };
    // The service's default Node flags, then the operator's own `NODE_OPTIONS`, which win.
    const nodeOptions = serviceNodeOptions(name, env.NODE_OPTIONS);
    const child = spawn(process.execPath, [serviceEntry(REPO_ROOT, name)], {
      cwd: REPO_ROOT,
      env: nodeOptions ? { ...env, NODE_OPTIONS: nodeOptions } : env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    this.services.push({ name, child, exited });
    return new Promise((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        let entry: Record<string, unknown> | undefined;
        try {
          entry = JSON.parse(line);
        } catch {
          entry = undefined;
        }
        if (entry?.msg === 'ready') resolve();
        if (
          entry &&
          (entry.level === 'debug' ||
            entry.context === 'RouterExplorer' ||
            entry.context === 'InstanceLoader')
        )
          return;
        const text = entry
          ? `${entry.level === 'error' ? '\x1b[31m' : ''}${String(entry.msg)}\x1b[0m${this.extra(entry)}`
          : line;
        this.print(`${color}${name.padEnd(13)}\x1b[0m ${text}`);
      });
      createInterface({ input: child.stderr! }).on('line', (line) =>
        this.print(`${color}${name.padEnd(13)}\x1b[0m ${line}`),
      );
      void exited.then((code) => reject(new Error(`${name} exited with code ${code} before it was ready`)));
    });
  }

  private extra(entry: Record<string, unknown>): string {
    const rest = Object.entries(entry).filter(
      ([key]) => !['time', 'level', 'service', 'instance', 'msg', 'context'].includes(key),
    );
    return rest.length
      ? ` \x1b[2m${rest.map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`).join(' ')}\x1b[0m`
      : '';
  }

  async stopAll(): Promise<void> {
    for (const service of this.services) if (service.child.exitCode === null) service.child.kill('SIGTERM');
    const deadline = setTimeout(
      () => this.services.forEach((service) => service.child.kill('SIGKILL')),
      15_000,
    );
    await Promise.all(this.services.map((service) => service.exited));
    clearTimeout(deadline);
  }
}
