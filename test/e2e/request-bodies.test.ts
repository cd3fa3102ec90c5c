import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { holdBody, type HeldBody, type HeldBodyOptions } from '../support/attacks/held-bodies';
import { watchRuntimeDuring } from '../support/health-watch';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { until } from '../support/until';

const MIB = 1024 * 1024;
/**
 * Longer than any answer takes, however loaded the machine: these tests specify what is answered and where a body
 * goes. How fast (answers within 4 s, /api/health within 2 s) and how much memory the runtime adds are targets of
 * bench/isolation.ts, measured the same way these tests hold the bodies.
 */
const PATIENT_MS = 30_000;
/** A short body timeout for this suite, so that a stalled body is cut off within seconds. */
const IDLE_TIMEOUT_SECONDS = 5;
/** Room for the upload of the spooling test (the default is 100 MiB). */
const MAX_REQUEST_SIZE_MB = 256;
const ADMIN = { username: 'bodies-admin', password: 'bodies-admin-password' };

/** The names of the spooled bodies in the runtime's scratch folder. */
const spoolFiles = async (runtime: RuntimeProcess) =>
  (await readdir(join(runtime.dataDir, 'scratch'))).filter((name) => name.startsWith('request-body-'));

/** The bytes in the spooled bodies. */
const spooledBytes = async (runtime: RuntimeProcess) => {
  const sizes = await Promise.all((await spoolFiles(runtime)).map((name) => stat(join(runtime.dataDir, 'scratch', name)).then((file) => file.size, () => 0)));
  return sizes.reduce((sum, size) => sum + size, 0);
};
/**
 * What may be in flight rather than on disk: the gateway's memory window (1 MiB, BODY_MEMORY_WINDOW_BYTES), the
 * spool stream's buffer and the sockets' buffers on both sides of the loopback.
 */
const SPOOL_SLACK_BYTES = 16 * MIB;

/** Six anonymous uploads held incomplete, as the security review sent them, on a runtime of its own. */
describe('anonymous uploads held incomplete', () => {
  let runtime: RuntimeProcess;

  beforeAll(async () => {
    runtime = await startRuntimeProcess();
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('are each answered 401 before their bodies end and their connections closed, while health answers throughout', async () => {
    // Arrange
    const bodies = Array.from({ length: 6 }, () => holdBody(runtime.baseUrl, { sendBytes: 20_000_000 }));
    const answered = Promise.race([Promise.all(bodies.map((body) => body.settled)), new Promise((resolve) => setTimeout(resolve, PATIENT_MS))]);

    // Act
    const watch = await watchRuntimeDuring(runtime, answered, { healthTimeoutMs: PATIENT_MS });
    const outcomes = bodies.map((body) => body.outcome());
    for (const body of bodies) body.abort();

    // Assert: the bodies are never complete (they declare 90 MiB), so an answer is one given before their end.
    for (const outcome of outcomes) {
      expect(outcome.status).toBe(401);
      expect(outcome.body).toMatchObject({ error: { code: 'UNAUTHORIZED', request_id: outcome.headers?.['x-request-id'] } });
      expect(outcome.headers?.connection).toBe('close');
      expect(outcome.closedByServer).toBe(true);
    }
    expect(watch.unhealthy).toBe(0);
  }, 60_000);
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
    await until(async () => (await spoolFiles(runtime)).length === 0, PATIENT_MS, 'no spooled body left');
  });

  it('are kept on disk: their spool file under DATA_DIR/scratch holds the bytes sent while the body is held', async () => {
    // Arrange
    const sendBytes = 128 * MIB;
    const body = hold({ contentLength: 200 * MIB, sendBytes, trickleEveryMs: 500 });

    // Act
    await body.sent;
    await until(async () => (await spooledBytes(runtime)) >= sendBytes - SPOOL_SLACK_BYTES, PATIENT_MS, 'the bytes sent spooled to disk');

    // Assert: all but what is in flight is on disk, while the body is still held open (no answer yet).
    const outcome = body.outcome();
    expect(outcome.status).toBeNull();
    expect(outcome.bytesSent).toBeGreaterThanOrEqual(sendBytes);
    expect(await spoolFiles(runtime)).toHaveLength(1);
  }, 60_000);

  it('leave no spooled body under DATA_DIR/scratch once their client goes away', async () => {
    // Arrange
    const body = hold({ sendBytes: 4 * MIB, trickleEveryMs: 500 });
    await body.sent;
    await until(async () => (await spoolFiles(runtime)).length === 1, PATIENT_MS, 'the body spooled under DATA_DIR/scratch');

    // Act
    body.abort();

    // Assert
    await until(async () => (await spoolFiles(runtime)).length === 0, PATIENT_MS, 'the spooled body removed');
    expect(body.outcome().status).toBeNull();
  }, 90_000);

  it('are cut off with 408 and the P body when the body stops arriving, and their connection closed', async () => {
    // Arrange
    const body = hold({ contentLength: MIB, sendBytes: 64 * 1024 });

    // Act
    await Promise.race([body.settled, new Promise((resolve) => setTimeout(resolve, PATIENT_MS))]);
    const outcome = body.outcome();

    // Assert
    expect(outcome.status).toBe(408);
    expect(outcome.body).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: { field: 'request' }, request_id: outcome.headers?.['x-request-id'] },
    });
    expect(outcome.answeredAfterMs).toBeGreaterThanOrEqual(IDLE_TIMEOUT_SECONDS * 1000 - 100);
    expect(outcome.closedByServer).toBe(true);
  }, 60_000);
});
