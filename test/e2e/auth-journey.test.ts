import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';

/** The walk a client makes: register, login, profile, settings, change password, refresh, logout. */
describe('a new user, from sign-up to logout', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  const suffix = Math.random().toString(36).slice(2, 10);
  const credentials = { username: `walker_${suffix}`, email: `walker_${suffix}@example.com`, password: 'first-password' };
  let client: ApiClient;
  let firstToken: string;

  beforeAll(async () => {
    await anonymous.post('/api/auth/register', credentials);
  });

  it('cannot register the same username twice, whatever its case', async () => {
    const again = await anonymous.post('/api/auth/register', {
      ...credentials,
      username: credentials.username.toUpperCase(),
      email: `other_${suffix}@example.com`,
    });

    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { field: 'username' } });
  });

  it('logs in and gets a token, its expiry and the user without secrets', async () => {
    const login = await anonymous.post('/api/auth/login', { username: credentials.username, password: credentials.password });

    expect(login.status).toBe(200);
    expect(login.body.user).toEqual({
      id: expect.any(String),
      username: credentials.username,
      email: credentials.email,
      // A sign-up gets a workspace of its own and is its admin.
      role: 'admin',
    });
    expect(Date.parse(login.body.expires_at)).toBeGreaterThan(Date.now());
    firstToken = login.body.token;
    client = anonymous.withToken(firstToken);
  });

  it('reads its profile', async () => {
    const profile = await client.get('/api/users/profile');

    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ username: credentials.username, email: credentials.email, display_name: null });
    expect(profile.body).not.toHaveProperty('password_hash');
  });

  it('changes its email and display name', async () => {
    const updated = await client.put('/api/users/profile', { email: `new_${suffix}@example.com`, display_name: 'Walker' });

    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ email: `new_${suffix}@example.com`, display_name: 'Walker' });
    expect((await client.get('/api/users/profile')).body.display_name).toBe('Walker');
  });

  it('gets default settings before saving any', async () => {
    const settings = await client.get('/api/settings');

    expect(settings.status).toBe(200);
    expect(settings.body).toEqual({
      theme: 'light',
      language: 'en',
      notifications_enabled: true,
      ocr_default_language: 'eng',
      items_per_page: 20,
    });
  });

  it('updates some settings and keeps the others', async () => {
    const updated = await client.put('/api/settings', { theme: 'dark', items_per_page: 50 });
    const again = await client.put('/api/settings', { ocr_default_language: 'eng+deu' });

    expect(updated.status).toBe(200);
    expect(again.body).toMatchObject({ theme: 'dark', items_per_page: 50, ocr_default_language: 'eng+deu', language: 'en' });
    expect((await client.get('/api/settings')).body).toEqual(again.body);
  });

  it('changes its password, and the old token stops working', async () => {
    const changed = await client.post('/api/users/change-password', {
      current_password: credentials.password,
      new_password: 'second-password',
    });

    expect(changed.status).toBe(200);
    expect((await client.get('/api/users/profile')).status).toBe(401);
    expect((await anonymous.post('/api/auth/login', { username: credentials.username, password: credentials.password })).status).toBe(401);
    client = anonymous.withToken(changed.body.token);
    expect((await client.get('/api/users/profile')).status).toBe(200);
  });

  it('cannot refresh a token issued before the password change', async () => {
    const refreshed = await anonymous.withToken(firstToken).post('/api/auth/refresh');

    expect(refreshed.status).toBe(401);
  });

  it('refreshes its token, and the refreshed one cannot be refreshed twice', async () => {
    const before = client;
    const refreshed = await before.post('/api/auth/refresh');
    const replay = await before.post('/api/auth/refresh');

    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token).toEqual(expect.any(String));
    expect(refreshed.body.user.username).toBe(credentials.username);
    expect(replay.status).toBe(401);
    client = anonymous.withToken(refreshed.body.token);
    expect((await client.get('/api/settings')).status).toBe(200);
  });

  it('logs out, and the token stops working, for refresh too', async () => {
    const logout = await client.post('/api/auth/logout');

    expect(logout.status).toBe(200);
    expect((await client.get('/api/users/profile')).status).toBe(401);
    expect((await client.post('/api/auth/refresh')).status).toBe(401);
  });

  it('logs in with the new password', async () => {
    const login = await anonymous.post('/api/auth/login', { username: credentials.username, password: 'second-password' });

    expect(login.status).toBe(200);
  });
});
