import { describe, expect, it } from '@jest/globals';
import { Histogram, Registry } from 'prom-client';
import { CountedHistogram } from './counted-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];

function registries() {
  const stock = new Registry();
  const counted = new Registry();
  for (const registry of [stock, counted]) registry.setDefaultLabels({ service: 'unit' });
  return { stock, counted };
}

describe('CountedHistogram', () => {
  it('exports exactly what prom-client’s Histogram exports for the same observations', async () => {
    const { stock, counted } = registries();
    const config = { name: 'talon_test_seconds', help: 'A test "histogram".', buckets: BUCKETS };
    const reference = new Histogram({ ...config, labelNames: ['tool', 'domain'], registers: [stock] });
    const histogram = new CountedHistogram(counted, { ...config, labelNames: ['tool', 'domain'] as const });
    const observations: Array<[Record<'tool' | 'domain', string>, number]> = [
      [{ tool: 'echo', domain: 'network' }, 0.0004],
      [{ tool: 'echo', domain: 'network' }, 0.001], // on a bound: that bucket, as prom-client counts it
      [{ domain: 'network', tool: 'echo' }, 0.05], // the same label set in another key order
      [{ tool: 'say "hi"\n', domain: 'local' }, 2], // above every bound: only +Inf
      [{ tool: 'a\u0000', domain: 'b' }, 0.2],
      [{ tool: 'a', domain: '\u0000b' }, 0.3],
      [{ tool: 'echo', domain: 'network' }, 0],
    ];
    for (const [labels, value] of observations) {
      reference.observe(labels, value);
      histogram.observe(labels, value);
    }
    const text = await counted.metrics();
    expect(text).toBe(await stock.metrics());
    expect(text).toContain(
      'talon_test_seconds_bucket{le="0.001",service="unit",tool="echo",domain="network"} 3',
    );
    expect(text).toContain('talon_test_seconds_count{service="unit",tool="echo",domain="network"} 4');
    const strip = (metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>) =>
      metrics.map((metric) => ({
        ...metric,
        values: metric.values.map((sample) => ({
          labels: sample.labels,
          value: sample.value,
          metricName: (sample as { metricName?: string }).metricName,
        })),
      }));
    expect(strip(await counted.getMetricsAsJSON())).toEqual(strip(await stock.getMetricsAsJSON()));
  });

  it('takes a value alone when it has no labels, refuses a value that is not a number, and resets', async () => {
    const { stock, counted } = registries();
    const config = { name: 'talon_wait_seconds', help: 'Waits.', buckets: BUCKETS };
    const reference = new Histogram({ ...config, registers: [stock] });
    const histogram = new CountedHistogram(counted, { ...config, labelNames: [] });
    for (const value of [0.002, 0.5, 7]) {
      reference.observe(value);
      histogram.observe(value);
    }
    expect(await counted.metrics()).toBe(await stock.metrics());
    expect(() => histogram.observe(Number.NaN)).toThrow(TypeError);
    expect(() => histogram.observe(Number.POSITIVE_INFINITY)).toThrow(TypeError);
    expect(await counted.metrics()).toContain('talon_wait_seconds_count{service="unit"} 3');
    counted.resetMetrics();
    expect(await counted.metrics()).not.toContain('talon_wait_seconds_count');
  });

  it('refuses bounds that do not ascend, and a second metric of the same name', () => {
    const registry = new Registry();
    expect(
      () => new CountedHistogram(registry, { name: 'talon_a', help: 'a', labelNames: [], buckets: [1, 1] }),
    ).toThrow(RangeError);
    new CountedHistogram(registry, { name: 'talon_b', help: 'b', labelNames: [], buckets: BUCKETS });
    expect(
      () => new CountedHistogram(registry, { name: 'talon_b', help: 'b', labelNames: [], buckets: BUCKETS }),
    ).toThrow(/already been registered/);
  });
});
