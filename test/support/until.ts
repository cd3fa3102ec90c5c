/**
 * Waits until `condition` (sync or async) holds, checking every 25 ms: the tests' one bounded wait, never a bare
 * sleep. Fails after `timeoutMs`, naming `what` was awaited.
 */
export async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Repeats `request` until its result is accepted, and answers that result: for reads that follow the table's
 * change stream (searches, filtered listings, events), which catch up with a write within a moment. Fails after
 * `timeoutMs` with the last result, naming `what` was awaited.
 */
export async function eventually<T>(request: () => Promise<T>, accept: (result: T) => boolean, timeoutMs = 10_000, what = 'the expected result'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await request();
    if (accept(result)) return result;
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${JSON.stringify(result).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
