import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { NatsCredentials } from '@talon/auth';
import { REPO_ROOT } from './repo-root.js';

/** The state directory the CLI and `talon up` share. Default `<checkout>/.talon/state` (env `TALON_STATE_DIR`). */
export function cliStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TALON_STATE_DIR || resolve(REPO_ROOT, '.talon', 'state'));
}

/** What `talon up` records about the private NATS server it runs (mode 0600). */
export interface BusState {
  url: string;
  credentials: NatsCredentials;
}

/** File of {@link BusState} in a state directory. */
export function busStatePath(stateDir: string): string {
  return join(stateDir, 'nats-credentials.json');
}

/** The bus state `talon up` wrote, or undefined. */
export function readBusState(stateDir: string): BusState | undefined {
  try {
    return JSON.parse(readFileSync(busStatePath(stateDir), 'utf8')) as BusState;
  } catch {
    return undefined;
  }
}
