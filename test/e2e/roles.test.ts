import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { E2E_ADMIN } from './global-setup';

describe('roles', () => {
  const anonymous = new ApiClient(inject('baseUrl'));

  it('lets the configured admin list users, without secrets', async () => {
    const admin = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    const { user } = await anonymous.signUp('listed');

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
    await anonymous.signUp('paged');
    await anonymous.signUp('paged');

    const first = await admin.get('/api/users?page=1&per_page=1');
    const second = await admin.get('/api/users?page=2&per_page=1');

    expect(first.body.data).toHaveLength(1);
    expect(first.body.pagination).toMatchObject({ page: 1, per_page: 1, has_next: true, has_prev: false });
    expect(first.body.pagination.total).toBeGreaterThanOrEqual(3);
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('refuses the user list to a viewer with 403 FORBIDDEN', async () => {
    const { client } = await anonymous.signUp('viewer');

    const users = await client.get('/api/users');

    expect(users.status).toBe(403);
    expect(users.body.error.code).toBe('FORBIDDEN');
  });

  it('refuses the user list without a token with 401 UNAUTHORIZED', async () => {
    const users = await anonymous.get('/api/users');

    expect(users.status).toBe(401);
    expect(users.body.error.code).toBe('UNAUTHORIZED');
  });

  it('gives a newly registered user the viewer role', async () => {
    const { client } = await anonymous.signUp('newcomer');

    expect((await client.get('/api/users/profile')).body.role).toBe('viewer');
  });

  it('keeps settings per user', async () => {
    const first = await anonymous.signUp('first');
    const second = await anonymous.signUp('second');

    await first.client.put('/api/settings', { theme: 'dark' });

    expect((await second.client.get('/api/settings')).body.theme).toBe('light');
  });
});
