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

/** The product's bound on /api/health while an attack runs. */
const HEALTH_WITHIN_MS = 2000;

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

  it('keeps /api/health answering 200 within 2 s while the listing is read', () => {
    expect(outcome.watch.unhealthy).toBe(0);
    expect(outcome.watch.slowestHealthMs).toBeLessThan(HEALTH_WITHIN_MS);
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
