import { Kvm, type KV, type KvWatchEntry } from '@nats-io/kv';
import type { NatsConnection, QueuedIterator } from '@nats-io/transport-node';
import type { TSchema, Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { SHARED_BUCKET_SETTINGS } from '@talon/contracts';
import { bucketSettingsDifferences } from './bucket-settings-check.js';
import { StateBucketMismatchError } from './errors/state-bucket-mismatch-error.js';
import type { RecordBucket, RecordChange } from './record-bucket.js';

/** Options of {@link JetStreamRecordBucket.open}. */
export interface JetStreamRecordBucketOptions<S extends TSchema> {
  connection: NatsConnection;
  /** The KV bucket; created with `SHARED_BUCKET_SETTINGS` when missing. */
  bucket: string;
  /** Every value must match it; one that does not is skipped (and reported), never served. */
  schema: S;
  /** Told about a value skipped because it is not JSON or fails the schema. */
  onInvalid?: (key: string, reason: string) => void;
  /** How long the initial view may take to arrive. Default 10 s. */
  initialTimeoutMs?: number;
}

/** Default wait for the initial view of a bucket. */
export const DEFAULT_INITIAL_VIEW_TIMEOUT_MS = 10_000;

/** The error JetStream answers a create whose key already holds a value with ("wrong last sequence"). */
const WRONG_LAST_SEQUENCE = 10071;

/**
 * A {@link RecordBucket} over a JetStream KV bucket. `open` makes sure the bucket exists with usable
 * settings, then watches every key: the initial values are in the view before `open` resolves, later
 * changes (from any replica) arrive in order and are told to the listeners.
 */
export class JetStreamRecordBucket<S extends TSchema> implements RecordBucket<Static<S>> {
  private readonly view = new Map<string, Static<S>>();
  /** Revision of each key's entry in the view, so a late watch message never replaces a newer own write. */
  private readonly revisions = new Map<string, number>();
  private readonly listeners = new Set<(change: RecordChange<Static<S>>) => void>();
  private watcher?: QueuedIterator<KvWatchEntry>;

  private constructor(
    private readonly kv: KV,
    private readonly options: JetStreamRecordBucketOptions<S>,
  ) {}

  /** @throws StateBucketMismatchError when the bucket exists with settings Talon cannot use */
  static async open<S extends TSchema>(
    options: JetStreamRecordBucketOptions<S>,
  ): Promise<JetStreamRecordBucket<S>> {
    const kv = await new Kvm(options.connection).create(options.bucket, {
      history: SHARED_BUCKET_SETTINGS.history,
      storage: SHARED_BUCKET_SETTINGS.storage,
      ttl: SHARED_BUCKET_SETTINGS.ttlMs,
    });
    const status = await kv.status();
    const differences = bucketSettingsDifferences(
      {
        history: status.history,
        storage: status.storage,
        ttlMs: status.ttl,
        subjects: status.streamInfo.config.subjects ?? [],
      },
      `$KV.${options.bucket}.>`,
    );
    if (differences.length > 0) throw new StateBucketMismatchError(options.bucket, differences);
    const bucket = new JetStreamRecordBucket(kv, options);
    await bucket.watch(status.streamInfo.state.last_seq);
    return bucket;
  }

  entries(): ReadonlyMap<string, Static<S>> {
    return this.view;
  }

  get(key: string): Static<S> | undefined {
    return this.view.get(key);
  }

  async create(key: string, value: Static<S>): Promise<boolean> {
    try {
      this.remember(key, value, await this.kv.create(key, JSON.stringify(value)));
      return true;
    } catch (error) {
      if ((error as { code?: unknown }).code === WRONG_LAST_SEQUENCE) return false;
      if (/wrong last sequence/i.test(String((error as Error).message))) return false;
      throw error;
    }
  }

  async put(key: string, value: Static<S>): Promise<void> {
    this.remember(key, value, await this.kv.put(key, JSON.stringify(value)));
  }

  async delete(key: string): Promise<void> {
    await this.kv.delete(key);
    this.view.delete(key);
  }

  /** Own writes show in the view at once (a reader right after a write sees it), before the watch echoes them. */
  private remember(key: string, value: Static<S>, revision: number): void {
    if ((this.revisions.get(key) ?? 0) >= revision) return;
    this.revisions.set(key, revision);
    this.view.set(key, value);
  }

  onChange(listener: (change: RecordChange<Static<S>>) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
    this.watcher?.stop();
  }

  /** Starts the watch; resolves once the values stored up to `lastSequence` are in the view. */
  private async watch(lastSequence: number): Promise<void> {
    const watcher = await this.kv.watch({ key: '>' });
    this.watcher = watcher;
    let initialised: () => void = () => undefined;
    const initial = new Promise<void>((resolve) => {
      initialised = resolve;
    });
    if (lastSequence === 0) initialised();
    void (async () => {
      for await (const entry of watcher) {
        const change = this.apply(entry);
        if (entry.revision >= lastSequence) initialised();
        if (change && entry.revision > lastSequence) for (const listener of this.listeners) listener(change);
      }
    })();
    const timeoutMs = this.options.initialTimeoutMs ?? DEFAULT_INITIAL_VIEW_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      initial,
      new Promise<never>((_resolve, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`the initial view of ${this.options.bucket} did not arrive in ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  private apply(entry: KvWatchEntry): RecordChange<Static<S>> | undefined {
    if ((this.revisions.get(entry.key) ?? 0) > entry.revision) return undefined;
    this.revisions.set(entry.key, entry.revision);
    if (entry.operation !== 'PUT') {
      this.view.delete(entry.key);
      return { kind: 'delete', key: entry.key, revision: entry.revision };
    }
    let value: unknown;
    try {
      value = entry.json();
    } catch {
      this.options.onInvalid?.(entry.key, 'not JSON');
      this.view.delete(entry.key);
      return { kind: 'delete', key: entry.key, revision: entry.revision };
    }
    if (!Value.Check(this.options.schema, value)) {
      const first = [...Value.Errors(this.options.schema, value)][0];
      this.options.onInvalid?.(
        entry.key,
        first ? `${first.path || '/'} ${first.message}` : 'schema mismatch',
      );
      this.view.delete(entry.key);
      return { kind: 'delete', key: entry.key, revision: entry.revision };
    }
    this.view.set(entry.key, value);
    return { kind: 'put', key: entry.key, value, revision: entry.revision };
  }
}
