/**
 * What a store read, kept in memory in front of it, exact as long as every write of those items goes through
 * {@link ExactReadCache.write} in this one process (the local runtime: one process, the only writer of its
 * table). Not a time-based cache: an entry stays until a write of its key, or until it is the least recently
 * used of `capacity` entries.
 *
 * A read that ran while a write finished is returned but not kept, since it may have read the item before the
 * write: every finished write (or failed one, whose outcome in the store is unknown) moves a generation on, and a
 * read keeps its value only when the generation did not move while it ran.
 */
export class ExactReadCache<V> {
  private readonly entries = new Map<string, V>();
  private generation = 0;

  constructor(private readonly capacity = 10_000) {}

  /** The kept value of `key`, else what `load` reads (kept unless a write finished meanwhile). */
  async read(key: string, load: () => Promise<V>): Promise<V> {
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as V;
      // Least recently used goes first: a hit moves the entry to the end of the insertion order.
      this.entries.delete(key);
      this.entries.set(key, value);
      return structuredClone(value);
    }
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) {
      this.entries.set(key, structuredClone(value));
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  /** Runs a write of `keys` (every key when null), then forgets them, whether it succeeded or not. */
  async write<T>(keys: readonly string[] | null, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } finally {
      this.generation++;
      if (keys === null) this.entries.clear();
      else for (const key of keys) this.entries.delete(key);
    }
  }
}
