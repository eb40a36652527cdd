import { describe, expect, it } from '@jest/globals';
import { InstalledToolsFollower, type InstalledToolsFollowerReport } from './installed-tools-follower.js';
import type { ToolInstaller } from './tool-installer.js';

/** A change source the test fires by hand; `fire(name)` makes a record of `name` appear first. */
function source() {
  const listeners = new Set<() => void>();
  const records = new Set<string>();
  return {
    onChange(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get(name: string) {
      return records.has(name) ? { name } : undefined;
    },
    fire(name?: string) {
      if (name) records.add(name);
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

  describe('catchUp (a call for a tool another runner has just installed)', () => {
    function counting() {
      let reconciles = 0;
      const installer = {
        reconcile: async () => {
          reconciles++;
          return { installed: [], upgraded: [], removed: [], failed: [] };
        },
      } as unknown as ToolInstaller;
      return { installer, reconciles: () => reconciles };
    }

    it('reconciles at once when the record is known, and resolves after that reconcile', async () => {
      const { installer, reconciles } = counting();
      const changes = source();
      changes.fire('fresh');
      const follower = new InstalledToolsFollower(installer, changes, () => undefined);
      follower.start();
      await follower.catchUp('fresh');
      expect(reconciles()).toBe(1);
      await follower.stop();
    });

    it('waits for a record still on its way, then reconciles', async () => {
      const { installer, reconciles } = counting();
      const changes = source();
      const follower = new InstalledToolsFollower(installer, changes, () => undefined);
      follower.start();
      const caught = follower.catchUp('late', 5_000);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reconciles()).toBe(0);
      changes.fire('late');
      await caught;
      expect(reconciles()).toBeGreaterThanOrEqual(1);
      await follower.stop();
    });

    it('gives up on a tool that has no record after the wait, without reconciling', async () => {
      const { installer, reconciles } = counting();
      const follower = new InstalledToolsFollower(installer, source(), () => undefined);
      follower.start();
      const started = Date.now();
      await follower.catchUp('nowhere', 50);
      expect(Date.now() - started).toBeGreaterThanOrEqual(45);
      expect(reconciles()).toBe(0);
      await follower.stop();
    });
  });
});
