import { describe, expect, it } from '@jest/globals';
import { WriteBatcher } from './write-batcher.js';

describe('WriteBatcher', () => {
  it('writes items added in one turn as one batch, in order, each with its own result', async () => {
    const batches: number[][] = [];
    const batcher = new WriteBatcher<number, string>(async (items) => {
      batches.push(items);
      return items.map((item) => `r${item}`);
    });
    const results = await Promise.all([1, 2, 3].map((item) => batcher.add(item)));
    expect(results).toEqual(['r1', 'r2', 'r3']);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('collects items added while a batch is written into the next one, one write at a time', async () => {
    const batches: number[][] = [];
    let inFlight = 0;
    let release!: () => void;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const batcher = new WriteBatcher<number, number>(async (items) => {
      expect(++inFlight).toBe(1);
      batches.push(items);
      if (batches.length === 1) await firstWrite;
      inFlight--;
      return items;
    });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((item) => batcher.add(item));
    release();
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3, 4]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('splits a queue longer than the largest batch', async () => {
    const sizes: number[] = [];
    const batcher = new WriteBatcher<number, number>(async (items) => {
      sizes.push(items.length);
      return items;
    }, 2);
    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.add(item)));
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rejects every item of a failed batch and keeps writing the next ones', async () => {
    let calls = 0;
    const batcher = new WriteBatcher<number, number>(async (items) => {
      if (++calls === 1) throw new Error('database gone');
      return items;
    });
    const failed = [1, 2].map((item) => batcher.add(item));
    await expect(failed[0]).rejects.toThrow('database gone');
    await expect(failed[1]).rejects.toThrow('database gone');
    await expect(batcher.add(3)).resolves.toBe(3);
  });

  it('rejects a batch whose write returned the wrong number of results', async () => {
    const batcher = new WriteBatcher<number, number>(async () => []);
    await expect(batcher.add(1)).rejects.toThrow('a batch of 1 writes returned 0 results');
  });
});
