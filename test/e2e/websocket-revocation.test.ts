import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { ChannelClient, type ChannelMessage } from '../support/ws-client';
import { E2E_ADMIN } from './global-setup';

const CORPUS = resolve(import.meta.dirname, '../../../shared/corpus/ocrmypdf');
const baseUrl = inject('baseUrl');

/** A WebSocket connection lives as long as the token it authenticated with. */
describe('the real-time channel when a token is revoked', () => {
  const anonymous = new ApiClient(baseUrl);
  let editor: ApiClient;
  const opened: ChannelClient[] = [];

  const connectAs = async (token: string) => {
    const client = await ChannelClient.authenticated(baseUrl, token);
    opened.push(client);
    return client;
  };
  /** A document everyone hears of at once (OCR off). */
  const announce = (title: string) =>
    editor.uploadDocument('pixel.png', readFileSync(join(CORPUS, 'linn.png')), { title, ocr_enabled: 'false' });
  const created = (id: string) => (m: ChannelMessage) => m.type === 'document_created' && m.data.document_id === id;
  const endedFor = (reason: string) => ({
    type: 'error',
    data: { code: 'UNAUTHORIZED', message: expect.any(String), details: { reason } },
  });

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  it('closes the connection of a logged-out token after telling it why, and the same user’s other session keeps receiving', async () => {
    // Arrange
    const { client: first, user, password } = await editor.addMember('viewer', 'leaver');
    const second = await anonymous.login(user.username, password);
    const [leaving, staying] = [await connectAs(first.token!), await connectAs(second.token!)];

    // Act
    const logout = await first.post('/api/auth/logout', {});
    const { code } = await leaving.closed;
    const id = await announce('After a logout');

    // Assert
    expect(logout.status).toBe(200);
    expect(code).toBe(1000);
    expect(leaving.received.at(-1)).toEqual(endedFor('logout'));
    expect(leaving.received.some(created(id))).toBe(false);
    await staying.next(created(id));
    expect(staying.isOpen).toBe(true);
  });

  it('closes every connection opened before a password change, and one opened with the new token keeps receiving', async () => {
    // Arrange
    const { client, user, password } = await editor.addMember('viewer', 'rekeyer');
    const other = await anonymous.login(user.username, password);
    const before = [await connectAs(client.token!), await connectAs(other.token!)];

    // Act
    const changed = await client.post('/api/users/change-password', { current_password: password, new_password: `${password}-new` });
    const closes = await Promise.all(before.map((socket) => socket.closed));
    const after = await connectAs(changed.body.token);
    const id = await announce('After a password change');

    // Assert
    expect(changed.status).toBe(200);
    expect(closes.map((c) => c.code)).toEqual([1000, 1000]);
    for (const socket of before) expect(socket.received.at(-1)).toEqual(endedFor('password_changed'));
    await after.next(created(id));
  });

  it('keeps a connection through a refresh of its token, and closes it when the refreshed token is logged out', async () => {
    // Arrange
    const { client } = await editor.addMember('viewer', 'refresher');
    const socket = await connectAs(client.token!);
    const refreshed = await client.post('/api/auth/refresh', {});
    const id = await announce('After a refresh');
    await socket.next(created(id));

    // Act
    await client.withToken(refreshed.body.token).post('/api/auth/logout', {});
    const { code } = await socket.closed;

    // Assert
    expect(refreshed.status).toBe(200);
    expect(code).toBe(1000);
    expect(socket.received.at(-1)).toEqual(endedFor('logout'));
  });
});
