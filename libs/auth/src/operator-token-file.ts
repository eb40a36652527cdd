import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Name of the file in the state directory that holds the first operator token. */
export const OPERATOR_TOKEN_FILE = 'operator.token';

/** Path of the operator token file of a state directory. */
export function operatorTokenPath(stateDir: string): string {
  return join(stateDir, OPERATOR_TOKEN_FILE);
}

/**
 * Writes the token to a file that must not exist yet, readable by its owner only (0600). Resolves false
 * when another process created it first (several orchestrators starting on one state directory).
 */
export async function writeOperatorTokenFile(path: string, token: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${token}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/** The token in a token file, or undefined when there is no such file. */
export async function readTokenFile(path: string): Promise<string | undefined> {
  try {
    const text = (await readFile(path, 'utf8')).trim();
    return text || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
