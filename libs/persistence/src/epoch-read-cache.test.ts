import { describe, expect, it } from '@jest/globals';
import { EpochReadCache } from './epoch-read-cache.js';

/** Reads answered by hand, counted. */
function controlledReads() {
  const pending: Array<{ key: string; settle: (value: string) => void; fail: (error: Error) => void }> = [];
  const read = (key: string) => () =>
    new Promise<string>((settle, fail) => pending.push({ key, settle, fail }));
  return { read, pending };
}

/** An epoch set by hand; it records the tables each reader named. */
function manualEpoch(value = 1) {
  const epoch = {
    value,
    asked: [] as Array<readonly string[] | undefined>,
    current: (tables?: readonly string[]) => {
      epoch.asked.push(tables);
      return epoch.value;
    },
  };
  return epoch;
}

describe('EpochReadCache', () => {
  it('shares one read per key while the epoch of its tables stands still, and reads again once it moves', async () => {
    const { read, pending } = controlledReads();
    const epoch = manualEpoch();
    const cache = new EpochReadCache(epoch, ['approval']);
    const first = cache.read('a', read('a'));
    const joined = cache.read('a', read('a'));
    const other = cache.read('b', read('b'));
    expect(pending.map((reading) => reading.key)).toEqual(['a', 'b']);
    pending[0]!.settle('one');
    pending[1]!.settle('other');
    expect(await first).toBe('one');
    expect(joined).toBe(first);
    expect(await other).toBe('other');
    expect(await cache.read('a', read('a'))).toBe('one');
    expect(pending).toHaveLength(2);
    expect(epoch.asked.every((tables) => tables?.join() === 'approval')).toBe(true);

    epoch.value = 2; // a statement that may write the table started
    const after = cache.read('a', read('a'));
    expect(pending).toHaveLength(3);
    pending[2]!.settle('two');
    expect(await after).toBe('two');
  });

  it('never hands a caller who came after a write the read that began before it', async () => {
    const { read, pending } = controlledReads();
    const epoch = manualEpoch();
    const cache = new EpochReadCache(epoch, ['approval']);
    const before = cache.read('a', read('a'));
    epoch.value = 2;
    const after = cache.read('a', read('a'));
    expect(pending).toHaveLength(2);
    pending[1]!.settle('new');
    pending[0]!.settle('old');
    expect(await before).toBe('old');
    expect(await after).toBe('new');
    expect(await cache.read('a', read('a'))).toBe('new');
    expect(pending).toHaveLength(2);
  });

  it('keeps no failed read: the next caller reads again', async () => {
    const { read, pending } = controlledReads();
    const cache = new EpochReadCache(manualEpoch(7), ['approval']);
    const failed = cache.read('a', read('a'));
    pending[0]!.fail(new Error('database gone'));
    await expect(failed).rejects.toThrow('database gone');
    const retried = cache.read('a', read('a'));
    expect(pending).toHaveLength(2);
    pending[1]!.settle('back');
    expect(await retried).toBe('back');
  });

  it('starts over once it holds its most readings', async () => {
    const { read, pending } = controlledReads();
    const cache = new EpochReadCache(manualEpoch(), ['approval'], 2);
    void cache.read('a', read('a'));
    void cache.read('b', read('b'));
    void cache.read('a', read('a')); // full: dropped and read again
    expect(pending.map((reading) => reading.key)).toEqual(['a', 'b', 'a']);
    void cache.read('a', read('a'));
    expect(pending).toHaveLength(3);
  });
});
