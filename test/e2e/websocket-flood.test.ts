import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_BUDGET } from '../../shared/domain/connections/message-budget';
import { ApiClient } from '../support/api-client';
import { assertInAsyncApi } from '../support/asyncapi-validator';
import { floodMalformedFrames, floodUnauthenticatedPings } from '../support/attacks/websocket-flood';
import { watchRuntimeDuring } from '../support/health-watch';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { ChannelClient } from '../support/ws-client';

/** The product's bound: /api/health answers within 2 s whatever one client does. */
const HEALTH_WITHIN_MS = 2000;
/** What one flooding socket may add to the runtime's resident memory. */
const RSS_GROWTH_BELOW_BYTES = 64 * 1024 * 1024;
const ADMIN = { username: 'flood-admin', password: 'flood-admin-password' };
/** The default auth timeout, so that only the message budget can close a flooding socket within the flood. */
const AUTH_TIMEOUT_SECONDS = 10;

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

  it('of unauthenticated pings at 1,000 a second keeps health within 2 s, closes the socket, and leaves /ws usable', async () => {
    // Arrange
    const attack = floodUnauthenticatedPings(runtime.baseUrl, { perSecond: 1000, durationMs: 4000 });

    // Act
    const watch = await watchRuntimeDuring(runtime, attack, { healthTimeoutMs: 5000 });
    const outcome = await attack;
    const client = await ChannelClient.authenticated(runtime.baseUrl, token);
    const pong = await client.request({ type: 'ping' });
    await client.close();

    // Assert
    expect(watch.unhealthy).toBe(0);
    expect(watch.slowestHealthMs).toBeLessThan(HEALTH_WITHIN_MS);
    expect(outcome.closed?.afterMs).toBeLessThan(AUTH_TIMEOUT_SECONDS * 1000);
    expect(outcome.received).toContainEqual(expect.objectContaining({ type: 'error', data: expect.objectContaining({ code: 'RATE_LIMITED' }) }));
    expect(pong).toEqual({ type: 'pong', data: {} });
    assertInAsyncApi(outcome.received);
  }, 20_000);

  it('of 200,000 malformed frames from a client that does not read keeps health within 2 s and memory bounded, and closes the socket', async () => {
    // Arrange
    const attack = floodMalformedFrames(runtime.baseUrl, { frames: 200_000, withinMs: 1000 });

    // Act
    const watch = await watchRuntimeDuring(runtime, attack, { healthTimeoutMs: 5000 });
    const outcome = await attack;

    // Assert
    expect(watch.unhealthy).toBe(0);
    expect(watch.slowestHealthMs).toBeLessThan(HEALTH_WITHIN_MS);
    expect(watch.peakRssBytes - watch.rssBeforeBytes).toBeLessThan(RSS_GROWTH_BELOW_BYTES);
    expect(outcome.closed).not.toBeNull();
    expect(outcome.received.length).toBeLessThanOrEqual(MESSAGE_BUDGET.invalidMessages);
    assertInAsyncApi(outcome.received);
  }, 20_000);
});
