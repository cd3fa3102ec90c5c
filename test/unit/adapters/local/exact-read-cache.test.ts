import { describe, expect, it } from 'vitest';
import { ExactReadCache } from '../../../../shared/adapters/local/exact-read-cache';

/** A store of one value per key whose reads are counted, and a cache in front of it. */
function setup(capacity?: number) {
  const stored = new Map<string, { name: string }>([['a', { name: 'first' }], ['b', { name: 'second' }], ['c', { name: 'third' }]]);
  let reads = 0;
  const load = (key: string) => async () => {
    reads++;
    return stored.get(key) ?? null;
  };
  return { cache: new ExactReadCache<{ name: string } | null>(capacity), stored, load, reads: () => reads };
}

describe('ExactReadCache', () => {
  it('reads a key from the store once, then from memory', async () => {
    const { cache, load, reads } = setup();

    await cache.read('a', load('a'));
    const again = await cache.read('a', load('a'));

    expect(again).toEqual({ name: 'first' });
    expect(reads()).toBe(1);
  });

  it('reads a key from the store again after a write of it', async () => {
    const { cache, stored, load } = setup();
    await cache.read('a', load('a'));

    await cache.write(['a'], async () => void stored.set('a', { name: 'renamed' }));

    expect(await cache.read('a', load('a'))).toEqual({ name: 'renamed' });
  });

  it('forgets a key whose write failed, since the store may hold either value', async () => {
    const { cache, stored, load, reads } = setup();
    await cache.read('a', load('a'));

    const failing = cache.write(['a'], async () => {
      stored.set('a', { name: 'half written' });
      throw new Error('the store timed out');
    });

    await expect(failing).rejects.toThrow('the store timed out');
    expect(await cache.read('a', load('a'))).toEqual({ name: 'half written' });
    expect(reads()).toBe(2);
  });

  it('returns a read that ran while a write finished without keeping it', async () => {
    const { cache, stored, load, reads } = setup();
    let release!: () => void;
    const slowRead = cache.read('a', async () => {
      const before = stored.get('a');
      await new Promise<void>((resolve) => (release = resolve));
      return before ?? null;
    });

    await cache.write(['a'], async () => void stored.set('a', { name: 'renamed' }));
    release();

    expect(await slowRead).toEqual({ name: 'first' });
    expect(await cache.read('a', load('a'))).toEqual({ name: 'renamed' });
    expect(reads()).toBe(1);
  });

  it('forgets every key after a write of all of them', async () => {
    const { cache, load, reads } = setup();
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));

    await cache.write(null, async () => undefined);
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));

    expect(reads()).toBe(4);
  });

  it('keeps at most its capacity, dropping the least recently used key', async () => {
    const { cache, load, reads } = setup(2);
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));
    await cache.read('a', load('a'));

    await cache.read('c', load('c'));
    await cache.read('a', load('a'));
    await cache.read('b', load('b'));

    expect(reads()).toBe(4);
  });

  it('hands out copies, so a caller that changes what it got changes nothing kept', async () => {
    const { cache, load } = setup();
    const got = await cache.read('a', load('a'));

    got!.name = 'changed by a caller';

    expect(await cache.read('a', load('a'))).toEqual({ name: 'first' });
  });
});
