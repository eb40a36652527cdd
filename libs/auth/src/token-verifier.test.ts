import { describe, expect, it } from '@jest/globals';
import { generateApiToken } from './api-token.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { TokenVerifier } from './token-verifier.js';

async function storeWith(scope: 'read' | 'agent' | 'operator', extra: { expiresAt?: Date } = {}) {
  const store = new InMemoryTokenStore();
  const generated = generateApiToken();
  await store.insert({
    id: generated.id,
    name: 'ci',
    scope,
    hash: generated.hash,
    createdAt: new Date(),
    createdBy: 'bootstrap',
    ...extra,
  });
  return { store, generated };
}

describe('TokenVerifier', () => {
  it('verifies a stored token and returns its principal', async () => {
    const { store, generated } = await storeWith('agent');
    const principal = await new TokenVerifier(store).verify(generated.token);
    expect(principal).toEqual({ id: generated.id, name: 'ci', scope: 'agent' });
  });

  it('refuses a missing, unknown, revoked or expired token with UNAUTHENTICATED', async () => {
    let clock = 1_000_000;
    const { store, generated } = await storeWith('read', { expiresAt: new Date(1_000_000 + 5_000) });
    const verifier = new TokenVerifier(store, { cacheMs: 100, now: () => clock });
    await expect(verifier.verify(undefined)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    await expect(verifier.verify('talon_' + 'x'.repeat(43))).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: expect.stringContaining('not known'),
    });
    await expect(verifier.verify(generated.token)).resolves.toMatchObject({ scope: 'read' });
    clock += 6_000; // expired while cached answers are still fresh: expiry is checked on every call
    await expect(verifier.verify(generated.token)).rejects.toMatchObject({
      message: expect.stringContaining('expired'),
    });
  });

  it('sees a revocation made elsewhere once the cache time has passed, not before', async () => {
    let clock = 0;
    const { store, generated } = await storeWith('operator');
    const verifier = new TokenVerifier(store, { cacheMs: 500, now: () => clock });
    await verifier.verify(generated.token);
    await store.revoke(generated.id, new Date());
    clock = 400;
    await expect(verifier.verify(generated.token)).resolves.toBeDefined();
    clock = 501;
    await expect(verifier.verify(generated.token)).rejects.toMatchObject({
      message: expect.stringContaining('revoked'),
    });
  });

  it('asks the store once per cache window and records use at most once a minute', async () => {
    let clock = 0;
    const { store, generated } = await storeWith('agent');
    let lookups = 0;
    let touches = 0;
    const counting = Object.assign(Object.create(store), {
      findByHash: (hash: string) => ((lookups += 1), store.findByHash(hash)),
      touch: (id: string, at: Date) => ((touches += 1), store.touch(id, at)),
    });
    const verifier = new TokenVerifier(counting, { cacheMs: 500, now: () => clock });
    for (let i = 0; i < 100; i++) await verifier.verify(generated.token);
    expect(lookups).toBe(1);
    clock = 61_000;
    await verifier.verify(generated.token);
    expect(lookups).toBe(2);
    expect(touches).toBe(2);
  });

  it('looks a token up once for all the calls that arrive while its lookup runs', async () => {
    let clock = 0;
    const { store, generated } = await storeWith('agent');
    let lookups = 0;
    let release: () => void = () => undefined;
    const slow = Object.assign(Object.create(store), {
      findByHash: async (hash: string) => {
        lookups += 1;
        await new Promise<void>((resolve) => (release = resolve));
        return store.findByHash(hash);
      },
    });
    const verifier = new TokenVerifier(slow, { cacheMs: 500, now: () => clock });
    const first = Array.from({ length: 64 }, () => verifier.verify(generated.token));
    release();
    expect(await Promise.all(first)).toHaveLength(64);
    expect(lookups).toBe(1);
    clock = 600; // expired: again one lookup for all of them
    const second = Array.from({ length: 64 }, () => verifier.verify(generated.token));
    release();
    await Promise.all(second);
    expect(lookups).toBe(2);
  });

  it('does not cache a lookup that was running when its answers were forgotten', async () => {
    const { store, generated } = await storeWith('operator');
    let release: () => void = () => undefined;
    const slow = Object.assign(Object.create(store), {
      findByHash: async (hash: string) => {
        const found = structuredClone(await store.findByHash(hash)); // the row as read, before the revocation
        await new Promise<void>((resolve) => (release = resolve));
        return found;
      },
    });
    const verifier = new TokenVerifier(slow, { cacheMs: 60_000 });
    const before = verifier.verify(generated.token);
    await new Promise((resolve) => setImmediate(resolve));
    await store.revoke(generated.id, new Date());
    verifier.forget(); // a revocation on this instance, while the lookup holds the token's old row
    const releaseFirst = release;
    const after = verifier.verify(generated.token);
    await new Promise((resolve) => setImmediate(resolve));
    release(); // the new lookup answers first; the old one's answer must not replace it
    await expect(after).rejects.toMatchObject({ message: expect.stringContaining('revoked') });
    releaseFirst();
    await expect(before).resolves.toBeDefined();
    await expect(verifier.verify(generated.token)).rejects.toMatchObject({
      message: expect.stringContaining('revoked'),
    });
  });

  it('keeps at most maxCached answers', async () => {
    const { store } = await storeWith('read');
    const verifier = new TokenVerifier(store, { maxCached: 3 });
    for (let i = 0; i < 10; i++)
      await verifier.verify(`talon_unknown_${i}_${'y'.repeat(30)}`).catch(() => undefined);
    expect((verifier as unknown as { cache: Map<string, unknown> }).cache.size).toBeLessThanOrEqual(3);
  });
});
