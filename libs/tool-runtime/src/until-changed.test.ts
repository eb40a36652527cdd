import { describe, expect, it } from '@jest/globals';
import { untilChanged } from './until-changed.js';

/** A value with change listeners, changed by hand. */
function changing() {
  const listeners = new Set<() => void>();
  let value = 0;
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next: number) {
      value = next;
      for (const listener of listeners) listener();
    },
    get value() {
      return value;
    },
    get listening() {
      return listeners.size;
    },
  };
}

describe('untilChanged', () => {
  it('is true at once when the condition already holds', async () => {
    const source = changing();
    await expect(untilChanged(source.subscribe, () => true, 0)).resolves.toBe(true);
    expect(source.listening).toBe(0);
  });

  it('turns true on the change that makes the condition hold, not on others, and unsubscribes', async () => {
    const source = changing();
    const waiting = untilChanged(source.subscribe, () => source.value === 2, 5_000);
    source.set(1);
    expect(source.listening).toBe(1);
    source.set(2);
    await expect(waiting).resolves.toBe(true);
    expect(source.listening).toBe(0);
  });

  it('is false after the wait, or as soon as the signal aborts', async () => {
    const source = changing();
    await expect(untilChanged(source.subscribe, () => false, 20)).resolves.toBe(false);
    const controller = new AbortController();
    const started = Date.now();
    const waiting = untilChanged(source.subscribe, () => false, 5_000, controller.signal);
    controller.abort();
    await expect(waiting).resolves.toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(source.listening).toBe(0);
  });
});
