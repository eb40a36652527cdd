import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';

interface SteadyOptions {
  batch?: number;
  tolerance?: number;
  steadyBatches?: number;
  maxCalls?: number;
}

interface BenchStats {
  pairedRatio(a: number[][], b: number[][], q?: number): number;
  warmUntilSteady(fn: () => Promise<void>, options?: SteadyOptions): Promise<number>;
  timeInterleavedRounds(
    sides: Record<string, () => Promise<void>>,
    options: { rounds: number; count: number; warmup?: number; steady?: SteadyOptions },
  ): Promise<{ perRound: Record<string, number[][]>; warmUpCalls: Record<string, number> }>;
}

/** Spins for `ms` (a call whose cost the benchmark clock sees). */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

// The benchmarks' shared statistics (plain ESM under bench/, loaded as the benchmarks load it).
const stats = (await import(join(process.cwd(), 'bench/support/stats.mjs'))) as BenchStats;

describe('benchmark statistics', () => {
  it('pairs rounds: a machine slowing down between rounds does not move the ratio', () => {
    // Side a is 1.1× side b in every round while the machine gets 3× slower over the run.
    const b = [
      [1, 1, 1],
      [2, 2, 2],
      [3, 3, 3],
    ];
    const a = b.map((round) => round.map((value) => value * 1.1));
    expect(stats.pairedRatio(a, b)).toBe(1.1);
    // One round that went wrong on one side only does not decide the median.
    const spoiled = [a[0]!, a[1]!, a[2]!.map((value) => value * 5)];
    expect(stats.pairedRatio(spoiled, b)).toBe(1.1);
  });

  it('rotates which side runs first and keeps every round of every side', async () => {
    const order: string[] = [];
    const side = (name: string) => async () => {
      order.push(name);
    };
    const { perRound, warmUpCalls } = await stats.timeInterleavedRounds(
      { x: side('x'), y: side('y'), z: side('z') },
      { rounds: 3, count: 1, warmup: 0, steady: { batch: 1, maxCalls: 1 } },
    );
    // One warm-up call each (maxCalls), then the rounds in rotating order.
    expect(warmUpCalls).toEqual({ x: 1, y: 1, z: 1 });
    expect(order).toEqual(['x', 'y', 'z', 'x', 'y', 'z', 'y', 'z', 'x', 'z', 'x', 'y']);
    expect(Object.values(perRound).map((list) => list.length)).toEqual([3, 3, 3]);
  });

  it('warms while a call keeps getting faster and stops once it no longer does', async () => {
    // 6 ms falling to 0.5 ms over the first 100 calls (a hot path being compiled), flat afterwards.
    let calls = 0;
    const warming = async () => {
      spin(Math.max(0.5, 6 - calls * 0.055));
      calls++;
    };
    const made = await stats.warmUntilSteady(warming, { batch: 20, maxCalls: 1000 });
    expect(made).toBe(calls);
    expect(made).toBeGreaterThanOrEqual(100);
    expect(made).toBeLessThan(1000);
  });
});
