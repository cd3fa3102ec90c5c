import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_ERROR_MESSAGES } from '../../functions/realtime/schemas';
import { MESSAGE_BUDGET } from '../../shared/domain/connections/message-budget';
import { ApiClient } from '../support/api-client';
import { assertInAsyncApi } from '../support/asyncapi-validator';
import { floodMalformedFrames, floodUnauthenticatedPings } from '../support/attacks/websocket-flood';
import { watchRuntimeDuring } from '../support/health-watch';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { ChannelClient } from '../support/ws-client';

/**
 * Longer than any answer or close takes, however loaded the machine: these tests specify what the service does.
 * How fast (/api/health within 2 s) and how much memory a flooding socket adds are targets of
 * bench/hostile-files.ts, which runs these attacks at the security review's strength.
 */
const PATIENT_MS = 20_000;
const ADMIN = { username: 'flood-admin', password: 'flood-admin-password' };
/** The default auth timeout: its close follows an UNAUTHORIZED error, which tells it from the message budget's. */
const AUTH_TIMEOUT_SECONDS = 10;
/** What the auth timeout says before its close (each ping before auth is also answered UNAUTHORIZED, in other words). */
const AUTH_TIMED_OUT = expect.objectContaining({
  type: 'error',
  data: expect.objectContaining({ code: 'UNAUTHORIZED', message: CHANNEL_ERROR_MESSAGES.authTimeout(AUTH_TIMEOUT_SECONDS) }),
});

/**
 * One client flooding /ws, on a runtime of its own: the service stays healthy, the flooding socket is closed,
 * and other clients are served as before.
 */
describe('a flood on /ws', () => {
  let runtime: RuntimeProcess;
  let token: string;

  beforeAll(async () => {
    runtime = await startRuntimeProcess({
      env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, WS_AUTH_TIMEOUT_SECONDS: String(AUTH_TIMEOUT_SECONDS) },
    });
    token = (await new ApiClient(runtime.baseUrl).login(ADMIN.username, ADMIN.password)).token!;
  }, 120_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('of unauthenticated pings at 1,000 a second keeps health answering, closes the socket for its message budget, and leaves /ws usable', async () => {
    // Arrange
    const attack = floodUnauthenticatedPings(runtime.baseUrl, { perSecond: 1000, durationMs: 4000, settleMs: PATIENT_MS });

    // Act
    const watch = await watchRuntimeDuring(runtime, attack, { healthTimeoutMs: PATIENT_MS });
    const outcome = await attack;
    const client = await ChannelClient.authenticated(runtime.baseUrl, token);
    const pong = await client.request({ type: 'ping' });
    await client.close();

    // Assert
    expect(watch.unhealthy).toBe(0);
    // Closed by the budget: the auth timeout would have said so before its close.
    expect(outcome.closed).not.toBeNull();
    expect(outcome.received).toContainEqual(expect.objectContaining({ type: 'error', data: expect.objectContaining({ code: 'RATE_LIMITED' }) }));
    expect(outcome.received).not.toContainEqual(AUTH_TIMED_OUT);
    expect(pong).toEqual({ type: 'pong', data: {} });
    assertInAsyncApi(outcome.received);
  }, 60_000);

  it('of 200,000 malformed frames from a client that does not read keeps health answering, answers no more than its budget, and closes the socket', async () => {
    // Arrange
    const attack = floodMalformedFrames(runtime.baseUrl, { frames: 200_000, withinMs: 1000, settleMs: PATIENT_MS });

    // Act
    const watch = await watchRuntimeDuring(runtime, attack, { healthTimeoutMs: PATIENT_MS });
    const outcome = await attack;

    // Assert: what the service queues for a client that does not read is bounded by the budget's answers.
    expect(watch.unhealthy).toBe(0);
    expect(outcome.closed).not.toBeNull();
    expect(outcome.received.length).toBeLessThanOrEqual(MESSAGE_BUDGET.invalidMessages);
    assertInAsyncApi(outcome.received);
  }, 60_000);
});
