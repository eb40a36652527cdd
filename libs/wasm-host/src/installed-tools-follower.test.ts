import { describe, expect, it } from '@jest/globals';
import { InstalledToolsFollower, type InstalledToolsFollowerReport } from './installed-tools-follower.js';
import type { ToolInstaller } from './tool-installer.js';

/** A change source the test fires by hand. */
function source() {
  const listeners = new Set<() => void>();
  return {
    onChange(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    fire() {
      for (const listener of listeners) listener();
    },
    get listening() {
      return listeners.size;
    },
  };
}

describe('InstalledToolsFollower', () => {
  it('runs one reconcile at a time and folds a burst of changes into the next one', async () => {
    let running = 0;
    let most = 0;
    let calls = 0;
    let release: () => void = () => undefined;
    const installer = {
      reconcile: async () => {
        calls++;
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => (release = resolve));
        running--;
        return { installed: ['t'], upgraded: [], removed: [], failed: [] };
      },
    } as unknown as ToolInstaller;
    const changes = source();
    const reports: InstalledToolsFollowerReport[] = [];
    const follower = new InstalledToolsFollower(installer, changes, (report) => reports.push(report));
    follower.start();
    changes.fire();
    await new Promise((resolve) => setImmediate(resolve));
    for (let index = 0; index < 5; index++) changes.fire();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await follower.stop();
    expect(calls).toBe(2);
    expect(most).toBe(1);
    expect(reports).toHaveLength(2);
    expect(changes.listening).toBe(0);
  });

  it('reports a reconcile that throws instead of stopping, and stays silent when nothing changed', async () => {
    let attempt = 0;
    const installer = {
      reconcile: async () => {
        attempt++;
        if (attempt === 1) throw new Error('bucket gone');
        return { installed: [], upgraded: [], removed: [], failed: [] };
      },
    } as unknown as ToolInstaller;
    const changes = source();
    const reports: InstalledToolsFollowerReport[] = [];
    const follower = new InstalledToolsFollower(installer, changes, (report) => reports.push(report));
    follower.start();
    changes.fire();
    await new Promise((resolve) => setImmediate(resolve));
    changes.fire();
    await follower.stop();
    expect(attempt).toBe(2);
    expect(reports).toEqual([
      { installed: [], upgraded: [], removed: [], failed: [{ name: '*', reason: 'bucket gone' }] },
    ]);
  });
});
