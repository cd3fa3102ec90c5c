import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { ChannelClient } from '../support/ws-client';
import { E2E_ADMIN } from './global-setup';

describe('roles', () => {
  const anonymous = new ApiClient(inject('baseUrl'));

  it('lets the configured admin list users, without secrets', async () => {
    const admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const { user } = await admin.addMember('viewer', 'listed');

    const users = await admin.get('/api/users?per_page=100');

    expect(users.status).toBe(200);
    expect(users.body.data.map((u: { username: string }) => u.username)).toEqual(
      expect.arrayContaining([E2E_ADMIN.username, user.username]),
    );
    expect(JSON.stringify(users.body)).not.toMatch(/password_hash|token_version/);
    expect(users.body.pagination).toMatchObject({ page: 1, per_page: 100, has_prev: false });
  });

  it('pages the user list', async () => {
    const admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    await admin.addMember('viewer', 'paged');
    await admin.addMember('viewer', 'paged');

    const first = await admin.get('/api/users?page=1&per_page=1');
    const second = await admin.get('/api/users?page=2&per_page=1');

    expect(first.body.data).toHaveLength(1);
    expect(first.body.pagination).toMatchObject({ page: 1, per_page: 1, has_next: true, has_prev: false });
    expect(first.body.pagination.total).toBeGreaterThanOrEqual(3);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('refuses the user list to a viewer with 403 FORBIDDEN', async () => {
    const admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const { client } = await admin.addMember('viewer');

    const users = await client.get('/api/users');

    expect(users.status).toBe(403);
    expect(users.body.error.code).toBe('FORBIDDEN');
  });

  it('refuses the user list without a token with 401 UNAUTHORIZED', async () => {
    const users = await anonymous.get('/api/users');

    expect(users.status).toBe(401);
    expect(users.body.error.code).toBe('UNAUTHORIZED');
  });

  it('gives a newly registered user a new workspace of their own, as its admin', async () => {
    const { client, user } = await anonymous.signUp('newcomer');

    const members = await client.get('/api/users');

    expect((await client.get('/api/users/profile')).body.role).toBe('admin');
    expect(members.body.data.map((u: { id: string }) => u.id)).toEqual([user.id]);
  });

  it('keeps settings per user', async () => {
    const first = await anonymous.signUp('first');
    const second = await anonymous.signUp('second');

    await first.client.put('/api/settings', { theme: 'dark' });

    expect((await second.client.get('/api/settings')).body.theme).toBe('light');
  });
});

/** A workspace admin manages the users of their workspace (here the first one, the operator's). */
describe('user management by a workspace admin', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let admin: ApiClient;
  const opened: ChannelClient[] = [];

  /** Creates a user through POST /api/users and logs in as them. */
  const createUser = async (prefix: string, role: string) => {
    const suffix = Math.random().toString(36).slice(2, 10);
    const account = { username: `${prefix}_${suffix}`, email: `${prefix}_${suffix}@example.com`, password: `pw-${suffix}-secret` };
    const created = await admin.post('/api/users', { ...account, role });
    if (created.status !== 201) throw new Error(`create failed: ${JSON.stringify(created.body)}`);
    return { created, client: await anonymous.login(account.username, account.password), account };
  };
  const uploadAs = (client: ApiClient) => {
    const form = new FormData();
    form.append('ocr_enabled', 'false');
    form.append('file', new Blob([pngImage(4, 4)]), 'tiny.png');
    return client.upload('/api/documents/upload', form);
  };

  beforeAll(async () => {
    admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  it('creates an editor in the admin’s workspace who can then upload', async () => {
    const { created, client } = await createUser('made_editor', 'editor');
    const profile = await admin.get('/api/users/profile');

    const upload = await uploadAs(client);

    expect(created.body).toMatchObject({ role: 'editor', workspace_id: profile.body.workspace_id, display_name: null });
    expect(JSON.stringify(created.body)).not.toMatch(/password|token_version/);
    expect(upload.status).toBe(201);
  });

  it('refuses a username or email that any user has with 409 DUPLICATE_RESOURCE, as registration does', async () => {
    const { account } = await createUser('taken', 'viewer');

    const sameName = await admin.post('/api/users', { ...account, email: 'fresh-address@example.com', role: 'viewer' });
    const sameEmail = await admin.post('/api/users', { ...account, username: 'fresh_name_x', role: 'viewer' });

    expect(sameName.status).toBe(409);
    expect(sameName.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'username' } });
    expect(sameEmail.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'email' } });
  });

  it('applies a role change on the next request of a token issued before it', async () => {
    const { created, client } = await createUser('demoted', 'editor');

    const change = await admin.put(`/api/users/${created.body.id}`, { role: 'viewer' });
    const upload = await uploadAs(client);

    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ id: created.body.id, role: 'viewer' });
    expect(upload.status).toBe(403);
    expect((await client.get('/api/users/profile')).body.role).toBe('viewer');
  });

  it('changes a user’s email and display name', async () => {
    const { created } = await createUser('renamed', 'viewer');

    const change = await admin.put(`/api/users/${created.body.id}`, { email: `${created.body.username}@example.org`, display_name: 'Renamed' });

    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ email: `${created.body.username}@example.org`, display_name: 'Renamed', role: 'viewer' });
  });

  it('deletes a user: 204, their token is refused with 401 and their WebSocket connection is closed', async () => {
    const { created, client } = await createUser('removed', 'editor');
    const channel = await ChannelClient.authenticated(anonymous.baseUrl, client.token!);
    opened.push(channel);

    const removal = await admin.delete(`/api/users/${created.body.id}`);
    const { code } = await channel.closed;
    const after = await client.get('/api/users/profile');

    expect(removal.status).toBe(204);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHORIZED');
    expect(code).toBe(1000);
    expect(channel.received.at(-1)).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED', details: { reason: 'user_deleted' } } });
    expect((await admin.get('/api/users?per_page=100')).body.data.map((u: { id: string }) => u.id)).not.toContain(created.body.id);
  });

  it('keeps the workspace’s last admin: demoting them is 409 DUPLICATE_RESOURCE', async () => {
    const self = await admin.get('/api/users/profile');
    const admins = (await admin.get('/api/users?per_page=100')).body.data.filter((u: { role: string }) => u.role === 'admin');

    const demotion = await admin.put(`/api/users/${self.body.id}`, { role: 'editor' });

    expect(admins.map((u: { id: string }) => u.id)).toEqual([self.body.id]);
    expect(demotion.status).toBe(409);
    expect(demotion.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'last_admin' } });
    expect((await admin.get('/api/users/profile')).body.role).toBe('admin');
  });

  it('never lets another admin demote or delete the operator (the bootstrap admin)', async () => {
    const { client: coAdmin, created } = await createUser('co_admin', 'admin');
    const operator = await admin.get('/api/users/profile');

    const demotion = await coAdmin.put(`/api/users/${operator.body.id}`, { role: 'viewer' });
    const removal = await coAdmin.delete(`/api/users/${operator.body.id}`);
    const cleanup = await admin.delete(`/api/users/${created.body.id}`);

    expect(demotion.status).toBe(409);
    expect(demotion.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator' } });
    expect(removal.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator' } });
    expect(cleanup.status).toBe(204);
  });

  it('answers an unknown user id with 404 NOT_FOUND and a malformed one with 400', async () => {
    const unknown = await admin.put(`/api/users/${crypto.randomUUID()}`, { role: 'editor' });
    const malformed = await admin.delete('/api/users/not-a-uuid');

    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.field).toBe('id');
  });

  it('refuses user management to an editor with 403 FORBIDDEN', async () => {
    const { client, created } = await createUser('plain_editor', 'editor');

    const attempts = await Promise.all([
      client.post('/api/users', { username: 'by_editor', email: 'by_editor@example.com', password: 'long-enough-pw', role: 'admin' }),
      client.put(`/api/users/${created.body.id}`, { role: 'admin' }),
      client.delete(`/api/users/${created.body.id}`),
    ]);

    expect(attempts.map((a) => a.status)).toEqual([403, 403, 403]);
  });
});

