import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LISTING_LIMITS, ListingTooLarge } from '../../../shared/adapters/webdav/multistatus';
import { WebDavFolders } from '../../../shared/adapters/webdav/webdav-client';
import { startHostileListingServer, type HostileListingServer } from '../../support/attacks/webdav-listing';
import { rejectionOf } from '../../support/rejection';

describe('WebDavFolders listing a directory near its entry cap', () => {
  const client = new WebDavFolders({ allowPrivateNetworks: true });
  let server: HostileListingServer | undefined;

  afterEach(async () => {
    await server?.stop();
  });

  afterAll(() => {
    client.close();
  });

  it('lists a directory of as many entries as the cap allows, every one of them', async () => {
    // Arrange
    server = await startHostileListingServer({ entries: LISTING_LIMITS.maxEntries });

    // Act
    const { directory, children } = await client.open({ url: server.url, username: 'sync', password: 'pw' }).list('');

    // Assert
    expect(directory).toMatchObject({ path: '', kind: 'directory', etag: '"dir-1"' });
    expect(children).toHaveLength(LISTING_LIMITS.maxEntries);
    expect(children.at(-1)).toEqual({ path: 'scan-049999.pdf', kind: 'file', etag: '"c34f"', size: 48213, lastModified: '2026-11-02T10:15:00.000Z' });
  });

  it('refuses a directory of one entry more than the cap as too large, naming the URL', async () => {
    // Arrange
    server = await startHostileListingServer({ entries: LISTING_LIMITS.maxEntries + 1 });

    // Act
    const error = await rejectionOf(client.open({ url: server.url, username: 'sync', password: 'pw' }).list(''), ListingTooLarge);

    // Assert
    expect(error).toMatchObject({ failure: 'listing_too_large', message: `${server.url}: The listing has more than 50000 entries.` });
  });
});
