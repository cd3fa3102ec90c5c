import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { holdBodies, holdBody, type HeldBody, type HeldBodyOptions } from '../support/attacks/held-bodies';
import { watchRuntimeDuring } from '../support/health-watch';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { until } from '../support/until';

const MIB = 1024 * 1024;
/** The product's bound: /api/health answers within 2 s whatever the clients do. */
const HEALTH_WITHIN_MS = 2000;
/** What six held anonymous uploads may add to the runtime's resident memory (they send 120 MB between them). */
const ANONYMOUS_RSS_GROWTH_BELOW_BYTES = 48 * MIB;
/** A short body timeout for this suite, so that a stalled body is cut off within seconds. */
const IDLE_TIMEOUT_SECONDS = 3;
/** Room for the upload of the spooling test (the default is 100 MiB). */
const MAX_REQUEST_SIZE_MB = 256;
const ADMIN = { username: 'bodies-admin', password: 'bodies-admin-password' };

/** The names of the spooled bodies in the runtime's scratch folder. */
const spoolFiles = async (runtime: RuntimeProcess) =>
  (await readdir(join(runtime.dataDir, 'scratch'))).filter((name) => name.startsWith('request-body-'));

/** Six anonymous uploads held incomplete, as the security review sent them, on a runtime of its own. */
describe('anonymous uploads held incomplete', () => {
  let runtime: RuntimeProcess;

  beforeAll(async () => {
    runtime = await startRuntimeProcess();
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('are each answered 401 before their bodies end, with memory bounded and health within 2 s', async () => {
    // Arrange: one held upload first, so that what a fresh runtime loads and allocates on its first requests
    // (code paths, pools, its start-up work) is not counted as the bodies' memory.
    await holdBodies(runtime.baseUrl, { count: 1, sendBytes: 1_000_000, holdMs: 500 });
    const attack = holdBodies(runtime.baseUrl, { count: 6, sendBytes: 20_000_000, holdMs: 5000 });

    // Act
    const watch = await watchRuntimeDuring(runtime, attack, { healthTimeoutMs: HEALTH_WITHIN_MS });
    const outcomes = await attack;

    // Assert
    for (const outcome of outcomes) {
      expect(outcome.status).toBe(401);
      expect(outcome.body).toMatchObject({ error: { code: 'UNAUTHORIZED', request_id: outcome.headers?.['x-request-id'] } });
      expect(outcome.headers?.connection).toBe('close');
      expect(outcome.closedByServer).toBe(true);
      expect(outcome.answeredAfterMs).toBeLessThan(4000);
    }
    expect(watch.unhealthy).toBe(0);
    expect(watch.slowestHealthMs).toBeLessThan(HEALTH_WITHIN_MS);
    expect(watch.peakRssBytes - watch.rssBeforeBytes).toBeLessThan(ANONYMOUS_RSS_GROWTH_BELOW_BYTES);
  }, 30_000);
});

/**
 * Authenticated uploads that arrive slowly or never complete, on a runtime of its own (with a short body
 * timeout): they hold disk rather than memory while they arrive, leave nothing behind, and end within a bound.
 */
describe('authenticated uploads held incomplete', () => {
  let runtime: RuntimeProcess;
  let authorization: string;

  beforeAll(async () => {
    runtime = await startRuntimeProcess({
      env: {
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        MAX_REQUEST_SIZE_MB: String(MAX_REQUEST_SIZE_MB),
        REQUEST_BODY_IDLE_TIMEOUT_SECONDS: String(IDLE_TIMEOUT_SECONDS),
      },
    });
    authorization = `Bearer ${(await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password)).token}`;
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  /** The bodies a test holds, dropped after it once their spool files are gone. */
  const held: HeldBody[] = [];
  const hold = (options: HeldBodyOptions): HeldBody => {
    const body = holdBody(runtime.baseUrl, { headers: { authorization }, ...options });
    held.push(body);
    return body;
  };

  afterEach(async () => {
    for (const body of held.splice(0)) body.abort();
    await until(async () => (await spoolFiles(runtime)).length === 0, 10_000, 'no spooled body left');
  });

  it("are kept on disk: the runtime's memory grows by well under the bytes sent", async () => {
    // Arrange
    const sendBytes = 128 * MIB;
    const body = hold({ contentLength: 200 * MIB, sendBytes, trickleEveryMs: 500 });

    // Act
    const watch = await watchRuntimeDuring(runtime, body.sent.then(() => new Promise((resolve) => setTimeout(resolve, 1000))));
    const outcome = body.outcome();

    // Assert
    expect(outcome.status).toBeNull();
    expect(outcome.bytesSent).toBeGreaterThanOrEqual(sendBytes);
    expect(watch.peakRssBytes - watch.rssBeforeBytes).toBeLessThan(sendBytes / 2);
  }, 60_000);

  it('leave no spooled body under DATA_DIR/scratch once their client goes away', async () => {
    // Arrange
    const body = hold({ sendBytes: 4 * MIB, trickleEveryMs: 500 });
    await body.sent;
    await until(async () => (await spoolFiles(runtime)).length === 1, 10_000, 'the body spooled under DATA_DIR/scratch');

    // Act
    body.abort();

    // Assert
    await until(async () => (await spoolFiles(runtime)).length === 0, 10_000, 'the spooled body removed');
    expect(body.outcome().status).toBeNull();
  }, 30_000);

  it('are cut off with 408 and the P body when the body stops arriving, and their connection closed', async () => {
    // Arrange
    const body = hold({ contentLength: MIB, sendBytes: 64 * 1024 });

    // Act
    await Promise.race([body.settled, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    const outcome = body.outcome();

    // Assert
    expect(outcome.status).toBe(408);
    expect(outcome.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { field: 'request' }, request_id: outcome.headers?.['x-request-id'] },
    });
    expect(outcome.answeredAfterMs).toBeGreaterThanOrEqual(IDLE_TIMEOUT_SECONDS * 1000 - 100);
    expect(outcome.closedByServer).toBe(true);
  }, 30_000);
});
