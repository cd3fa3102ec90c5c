import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTING_LIMITS } from '../../shared/adapters/webdav/multistatus';
import { ApiClient } from '../support/api-client';
import {
  createSourceOnHostileListing,
  startHostileListingServer,
  type HostileListingOutcome,
  type HostileListingServer,
} from '../support/attacks/webdav-listing';
import { startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';

/*
 * /api/health is polled during the attack and must answer 200 each time (test/support/health-watch.ts). The
 * product's bound, within 2 s, is a target of bench/hostile-files.ts, which runs this attack at the review's
 * strength: a timed assertion here would fail on a loaded machine rather than on a slow service.
 */

describe('a source on a WebDAV server that answers with a huge listing', () => {
  let runtime: RuntimeProcess;
  let server: HostileListingServer;
  let outcome: HostileListingOutcome;

  beforeAll(async () => {
    // A runtime of its own: the watch samples this process's memory. Loopback sources are allowed locally.
    runtime = await startRuntimeProcess({ env: { ADMIN_USERNAME: 'listing-admin', ADMIN_PASSWORD: 'listing-admin-password' } });
    const editor = await new ApiClient(runtime.baseUrl).login('listing-admin', 'listing-admin-password');
    server = await startHostileListingServer();
    outcome = await createSourceOnHostileListing(runtime, editor, server);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await runtime?.stop();
  });

  it('keeps /api/health answering 200 while the listing is read', () => {
    expect(outcome.watch.unhealthy).toBe(0);
  });

  it('refuses the source with a 400 on its url, as for any server that does not answer as WebDAV', () => {
    expect(outcome.create.status).toBe(400);
    expect(outcome.create.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'url', reason: expect.stringContaining('more entries or bytes in one folder than a source may hold') },
    });
  });

  it('stops reading the listing at its cap instead of downloading all of it', () => {
    expect(server.propfinds()).toBeGreaterThan(0);
    expect(server.bytesSent()).toBeLessThan(LISTING_LIMITS.maxBytes);
  });
});
