import { Counter, type Registry } from 'prom-client';
import { LabelValueIndex } from './label-value-index.js';

interface Count<L extends string> {
  labels: Readonly<Record<L, string>>;
  value: number;
}

/**
 * A labelled counter for a hot path: counts are kept by label values ({@link LabelValueIndex}) and written
 * into a prom-client counter when it is scraped. prom-client's own `inc` validates and hashes the label set
 * on every call, about 0.3 µs (measured; a tool call moves three counters).
 */
export class CountedCounter<L extends string> {
  readonly counter: Counter<L>;
  private readonly counts: LabelValueIndex<L, Count<L>>;

  constructor(registry: Registry, name: string, help: string, labelNames: readonly L[]) {
    const counts = new LabelValueIndex<L, Count<L>>(labelNames, (labels) => ({ labels, value: 0 }));
    this.counts = counts;
    this.counter = new Counter<L>({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        for (const count of counts.entries()) this.inc(count.labels, count.value);
      },
    });
  }

  inc(labels: Readonly<Record<L, string>>, value = 1): void {
    if (!(value >= 0)) throw new TypeError(`a counter only goes up: ${value}`);
    this.counts.get(labels).value += value;
  }
}
