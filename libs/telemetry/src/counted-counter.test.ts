import { describe, expect, it } from '@jest/globals';
import { Counter, Registry } from 'prom-client';
import { CountedCounter } from './counted-counter.js';

describe('CountedCounter', () => {
  it('exports exactly what prom-client’s Counter exports for the same increments', async () => {
    const stock = new Registry();
    const counted = new Registry();
    for (const registry of [stock, counted]) registry.setDefaultLabels({ service: 'unit' });
    const reference = new Counter({
      name: 'talon_test_total',
      help: 'Tests.',
      labelNames: ['method', 'code'],
      registers: [stock],
    });
    const counter = new CountedCounter(counted, 'talon_test_total', 'Tests.', ['method', 'code'] as const);
    const increments: Array<[Record<'method' | 'code', string>, number | undefined]> = [
      [{ method: 'tools.call', code: 'ok' }, undefined],
      [{ code: 'ok', method: 'tools.call' }, 2],
      [{ method: 'tools.call', code: 'TIMEOUT' }, undefined],
      [{ method: 'say "hi"\n', code: 'ok' }, 0.5],
    ];
    for (const [labels, value] of increments) {
      reference.inc(labels, value);
      counter.inc(labels, value);
    }
    expect(await counted.metrics()).toBe(await stock.metrics());
    expect(await counted.metrics()).toContain(
      'talon_test_total{method="tools.call",code="ok",service="unit"} 3',
    );
    // A scrape writes the counts again, it does not add them twice.
    expect(await counted.metrics()).toContain(
      'talon_test_total{method="tools.call",code="ok",service="unit"} 3',
    );
  });

  it('keeps the label values it was given, and refuses to go down', async () => {
    const registry = new Registry();
    const counter = new CountedCounter(registry, 'talon_kept_total', 'Kept.', ['tool'] as const);
    const labels = { tool: 'echo' };
    counter.inc(labels);
    labels.tool = 'changed';
    expect(await registry.metrics()).toContain('talon_kept_total{tool="echo"} 1');
    expect(() => counter.inc({ tool: 'echo' }, -1)).toThrow(TypeError);
    expect(() => counter.inc({ tool: 'echo' }, Number.NaN)).toThrow(TypeError);
  });
});
