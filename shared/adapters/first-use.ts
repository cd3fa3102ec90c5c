/**
 * Loads something on first use and keeps it: every caller waits on the same load, and a load that failed is
 * forgotten, so the next caller tries again (a secret read during an outage, a module that failed to import).
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
