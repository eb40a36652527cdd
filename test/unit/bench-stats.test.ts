import { describe, expect, it } from '@jest/globals';
import { join } from 'node:path';

interface BenchStats {
  pairedRatio(a: number[][], b: number[][], q?: number): number;
  timeInterleavedRounds(
    sides: Record<string, () => Promise<void>>,
    options: { rounds: number; count: number; firstWarmup?: number; warmup?: number },
  ): Promise<Record<string, number[][]>>;
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
    const rounds = await stats.timeInterleavedRounds(
      { x: side('x'), y: side('y'), z: side('z') },
      { rounds: 3, count: 1, firstWarmup: 0, warmup: 0 },
    );
    expect(order).toEqual(['x', 'y', 'z', 'y', 'z', 'x', 'z', 'x', 'y']);
    expect(Object.values(rounds).map((list) => list.length)).toEqual([3, 3, 3]);
  });
});
