import { createServer } from 'node:net';

/** A port `talon up` is about to give a service, and the variable that moves it. */
export interface PlannedPort {
  readonly what: string;
  readonly host: string;
  readonly port: number;
  readonly variable: string;
}

/** Whether something already listens on host:port (a bind attempt, so it is exact for this host). */
export function isPortTaken(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(true) : reject(error),
    );
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/**
 * The first planned port already in use, as one line that says which variable to set; undefined when
 * all are free. Checked before any service starts, so a busy port never shows as a service's stack.
 */
export async function busyPortProblem(ports: readonly PlannedPort[]): Promise<string | undefined> {
  for (const planned of ports) {
    if (planned.port === 0 || !(await isPortTaken(planned.host, planned.port))) continue;
    return `Port ${planned.port} (${planned.what}) on ${planned.host} is in use: stop what listens there, or set ${planned.variable} to a free port (e.g. ${planned.variable}=${planned.port + 1} pnpm talon up).`;
  }
  return undefined;
}
