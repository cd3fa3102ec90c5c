import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebDavFolders } from '../../../../shared/adapters/webdav/webdav-client';
import { freePort } from '../../../../shared/local/emulators/ports';
import { accessFailureReason, checkSourceAccess } from '../../../../shared/domain/sources/check-source-access';
import { SourceAccessError } from '../../../../shared/domain/sources/remote-folder';
import { DAV_USER, davFolders } from './source-world';

/** The check a source passes before it is saved, against a real WebDAV server (rclone) on loopback. */
describe('checkSourceAccess', () => {
  let served: Awaited<ReturnType<typeof davFolders>>;
  const remote = new WebDavFolders({ allowPrivateNetworks: true, requestTimeoutMs: 10_000 });

  beforeAll(async () => {
    served = await davFolders();
  });

  afterAll(async () => {
    await served?.stop();
  });

  it('passes for a folder its credentials can read', async () => {
    // Arrange
    const { url } = await served.folder({ 'scan.pdf': '%PDF-1.4' });

    // Act
    const check = checkSourceAccess(remote, { url, ...DAV_USER });

    // Assert
    await expect(check).resolves.toBeUndefined();
  });

  it('refuses a wrong password, naming the password field and never its value', async () => {
    // Arrange
    const { url } = await served.folder();

    // Act
    const refusal = await checkSourceAccess(remote, { url, username: DAV_USER.username, password: 'wrong-secret' }).catch((e: unknown) => e);

    // Assert
    expect(refusal).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'password', reason: 'the server refused the username or password (401)' } });
    expect(JSON.stringify(refusal)).not.toContain('wrong-secret');
  });

  it('refuses a folder the server does not have, naming the url', async () => {
    // Arrange
    const url = `${served.dav.url}${crypto.randomUUID()}/`;

    // Act
    const check = checkSourceAccess(remote, { url, ...DAV_USER });

    // Assert
    await expect(check).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url', reason: 'does not exist on the server (404)' } });
  });

  it('refuses an address nobody answers at', async () => {
    // Arrange
    const url = `http://127.0.0.1:${await freePort()}/dav/`;

    // Act
    const check = checkSourceAccess(remote, { url, ...DAV_USER });

    // Assert
    await expect(check).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'url', reason: 'could not be reached' } });
  });

  it('refuses a loopback address when private networks are not allowed', async () => {
    // Arrange
    const { url } = await served.folder();
    const guarded = new WebDavFolders({ allowPrivateNetworks: false, requestTimeoutMs: 10_000 });

    // Act
    const check = checkSourceAccess(guarded, { url, ...DAV_USER });

    // Assert
    await expect(check).rejects.toMatchObject({ details: { field: 'url', reason: expect.stringContaining('private, loopback or link-local') } });
  });
});

describe('accessFailureReason', () => {
  it('names the field to fix and why, as a source that failed shows it', () => {
    // Act
    const reasons = [accessFailureReason(new SourceAccessError('unauthorized', '401', 401)), accessFailureReason(new SourceAccessError('timeout', 'slow'))];

    // Assert
    expect(reasons).toEqual(['password: the server refused the username or password (401)', 'url: did not answer in time']);
  });
});
