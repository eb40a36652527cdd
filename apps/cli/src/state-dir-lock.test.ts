import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockStateDir, StateDirLockedError, stateDirLockPath } from './state-dir-lock.js';

const stateDir = () => mkdtempSync(join(tmpdir(), 'talon-lock-'));

describe('lockStateDir', () => {
  it('refuses a second holder while the first lives, and frees the directory on release', () => {
    const dir = stateDir();
    const release = lockStateDir(dir);
    expect(readFileSync(stateDirLockPath(dir), 'utf8').trim()).toBe(String(process.pid));
    // Another live process (this test's parent) claims it.
    let caught: unknown;
    try {
      lockStateDir(dir, process.ppid);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(StateDirLockedError);
    expect((caught as Error).message).toMatch(
      /Another Talon \(pid \d+\) is running on .* set TALON_STATE_DIR/,
    );
    release();
    expect(existsSync(stateDirLockPath(dir))).toBe(false);
    lockStateDir(dir, process.ppid)();
  });

  it('takes over a lock left by a process that died', () => {
    const dir = stateDir();
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(stateDirLockPath(dir), dead.stdout);
    const release = lockStateDir(dir);
    expect(readFileSync(stateDirLockPath(dir), 'utf8').trim()).toBe(String(process.pid));
    release();
  });
});
