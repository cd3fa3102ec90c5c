import { beforeAll, describe, expect, inject, it } from 'vitest';
import { eventually } from '../support/until';
import { ApiClient, type ApiResponse } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { E2E_ADMIN } from './global-setup';

const v2 = (path: string) => path.replace(/^\/api\//, '/api/v2/');

/** What must agree between the versions: status and body, without what differs per request. */
const comparable = (response: ApiResponse) => {
  const { status, body } = response;
  if (body?.error) {
    const { request_id: _id, timestamp: _at, message: _message, ...error } = body.error;
    return { status, error };
  }
  return { status, body };
};

describe('API versions', () => {
  const anonymous = new ApiClient(inject('baseUrl'));
  let editor: ApiClient;

  /** The same request under /api and /api/v2/, one after the other. */
  const both = async (client: ApiClient, method: string, path: string, body?: unknown) => {
    const first = await client.request(method, path, body);
    const second = await client.request(method, v2(path), body);
    return [first, second] as const;
  };

  beforeAll(async () => {
    editor = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  it('logs in under /api/v2/ with a token that serves both versions', async () => {
    const login = await anonymous.post('/api/v2/auth/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
    const client = anonymous.withToken(login.body.token);

    const [profile, profileV2] = await both(client, 'GET', '/api/users/profile');

    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ token: expect.any(String), expires_at: expect.any(String), user: { username: E2E_ADMIN.username } });
    expect(profile.status).toBe(200);
    expect(comparable(profileV2)).toEqual(comparable(profile));
  });

  it('refuses a wrong password and a missing token under /api/v2/ as under /api', async () => {
    // A user of its own: failed logins slow their username down, which must not reach the admin other suites use.
    const { user } = await anonymous.signUp('versions');
    const [wrong, wrongV2] = await both(anonymous, 'POST', '/api/auth/login', { username: user.username, password: 'not-the-password' });
    const [bare, bareV2] = await both(anonymous, 'GET', '/api/documents');

    expect(wrong.status).toBe(401);
    expect(comparable(wrongV2)).toEqual(comparable(wrong));
    expect(bare.status).toBe(401);
    expect(comparable(bareV2)).toEqual(comparable(bare));
  });

  it('uploads a document under /api/v2/ that both versions then read alike', async () => {
    const form = new FormData();
    form.append('ocr_enabled', 'false');
    form.append('file', new Blob([pngImage(32, 16)]), 'versioned.png');

    const upload = await editor.upload('/api/v2/documents/upload', form);
    const [read, readV2] = await both(editor, 'GET', `/api/documents/${upload.body.id}`);

    expect(upload.status).toBe(201);
    expect(upload.body).toEqual({ id: expect.any(String), message: expect.any(String), ocr_queued: false });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: upload.body.id, filename: 'versioned.png' });
    expect(comparable(readV2)).toEqual(comparable(read));
  });

  it('searches under /api/v2/ as under /api', async () => {
    const title = `versioned ${crypto.randomUUID().slice(0, 8)}`;
    const id = await editor.uploadDocument('search.png', pngImage(16, 16), { ocr_enabled: 'false', title });
    const path = `/api/search?q=${encodeURIComponent(title)}`;
    await eventually(() => editor.get(path), (response) => response.body.results?.some((r: { document_id: string }) => r.document_id === id));

    const [search, searchV2] = await both(editor, 'GET', path);

    expect(search.status).toBe(200);
    expect(search.body.results.map((r: { document_id: string }) => r.document_id)).toContain(id);
    expect(comparable(searchV2)).toEqual(comparable(search));
  });

  it('answers an unknown document and an unknown route 404 under /api/v2/ as under /api', async () => {
    const [document, documentV2] = await both(editor, 'GET', '/api/documents/00000000-0000-4000-8000-000000000000');
    const route = await editor.get('/api/nothing-here');
    const routeV2 = await editor.get('/api/v2/nothing-here');

    expect(document.status).toBe(404);
    expect(comparable(documentV2)).toEqual(comparable(document));
    expect(route.status).toBe(404);
    expect(routeV2.status).toBe(404);
    expect(routeV2.body.error.code).toBe(route.body.error.code);
  });

  it('marks no route deprecated in this release', async () => {
    const [health, healthV2] = await both(anonymous, 'GET', '/api/health');

    for (const response of [health, healthV2]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('deprecation')).toBeNull();
      expect(response.headers.get('sunset')).toBeNull();
    }
  });
});
