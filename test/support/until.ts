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
