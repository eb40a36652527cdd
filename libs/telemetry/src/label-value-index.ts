/**
 * Entries kept by their label values, one map level per label name: a lookup on a hot path reads a map per
 * label and builds no key string (and values that contain any separator cannot collide).
 */
export class LabelValueIndex<L extends string, E> {
  private readonly root = new Map<string, unknown>();
  private readonly all: E[] = [];

  constructor(
    private readonly labelNames: readonly L[],
    /** Makes the entry of a label set seen for the first time (`labels` is a copy it may keep). */
    private readonly create: (labels: Readonly<Record<L, string>>) => E,
  ) {}

  /** The entry of `labels`, made on first use. */
  get(labels: Readonly<Record<L, string>>): E {
    const names = this.labelNames;
    let level = this.root;
    for (let index = 0; index < names.length - 1; index++) {
      const value = labels[names[index]!];
      let next = level.get(value) as Map<string, unknown> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const last = names.length === 0 ? '' : labels[names[names.length - 1]!];
    let entry = level.get(last) as E | undefined;
    if (entry === undefined) {
      const copy = {} as Record<L, string>;
      for (const name of names) copy[name] = String(labels[name]);
      entry = this.create(copy);
      level.set(last, entry);
      this.all.push(entry);
    }
    return entry;
  }

  /** Every entry, in the order their label sets were first seen. */
  entries(): readonly E[] {
    return this.all;
  }

  clear(): void {
    this.root.clear();
    this.all.length = 0;
  }
}
