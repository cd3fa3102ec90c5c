import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { FAST_PASSWORD_HASHING, RATE_LIMITS_OUT_OF_REACH, startRuntimeProcess, type RuntimeProcess } from '../support/runtime-process';
import { textPdf } from '../support/text-pdf';
import { eventually } from '../support/until';
import { E2E_ADMIN } from './global-setup';

const FILE = pngImage(16, 16);
const limits = (overrides: Record<string, number | 'unlimited'>) => ({
  documents_stored: 'unlimited',
  bytes_stored: 'unlimited',
  ocr_pages_per_month: 'unlimited',
  sources: 'unlimited',
  members: 'unlimited',
  api_tokens: 'unlimited',
  ...overrides,
});
/** The plans of this runtime: new workspaces are on `small`; the operator moves them to the others. */
const PLANS = {
  small: limits({ members: 2, api_tokens: 1 }),
  tight: limits({ bytes_stored: FILE.byteLength * 10 }),
  pages: limits({ ocr_pages_per_month: 1 }),
};

/** The workspace routes by role, and each quota of a plan held at its edge (issue 37), on a runtime with PLANS. */
describe('workspace routes, plans and quotas', () => {
  let runtime: RuntimeProcess;
  let anonymous: ApiClient;
  let operator: ApiClient;

  const tenant = async () => {
    const { client: admin } = await anonymous.signUp('planned');
    const { body } = await admin.get('/api/workspace');
    return { admin, id: body.id as string };
  };
  const quota = (body: { quotas: { quota: string }[] }, name: string) => body.quotas.find((q) => q.quota === name);

  beforeAll(async () => {
    runtime = await startRuntimeProcess({
      env: { ADMIN_USERNAME: E2E_ADMIN.username, ADMIN_PASSWORD: E2E_ADMIN.password, PLANS: JSON.stringify(PLANS), DEFAULT_PLAN: 'small', ...RATE_LIMITS_OUT_OF_REACH, ...FAST_PASSWORD_HASHING },
    });
    anonymous = new ApiClient(runtime.baseUrl);
    operator = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  }, 300_000);

  afterAll(async () => {
    await runtime?.stop();
  });

  it('shows every member their workspace with its plan, status, usage and quotas; only its admins rename it', async () => {
    const { admin, id } = await tenant();
    const { client: editor } = await admin.addMember('editor');

    const [asAdmin, asEditor] = await Promise.all([admin.get('/api/workspace'), editor.get('/api/workspace')]);
    const byEditor = await editor.put('/api/workspace', { name: 'Not mine to name' });
    const renamed = await admin.put('/api/workspace', { name: 'Acme accounting' });

    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toMatchObject({ id, plan: 'small', status: 'active', member_count: 2, usage: { api_requests: expect.any(Number) } });
    expect(quota(asAdmin.body, 'members')).toEqual({ quota: 'members', limit: 2, used: 2 });
    expect(quota(asAdmin.body, 'bytes_stored')).toEqual({ quota: 'bytes_stored', limit: 'unlimited', used: 0 });
    expect(asEditor.body.id).toBe(id);
    expect(byEditor.status).toBe(403);
    expect(renamed.body).toMatchObject({ id, name: 'Acme accounting' });
  });

  it('lets every role and a read-only API token read the workspace, and only an admin rename it', async () => {
    const { admin, id } = await tenant();
    await operator.put(`/api/workspaces/${id}`, { plan: 'tight' });
    const { client: viewer } = await admin.addMember('viewer');
    const token = await admin.post('/api/tokens', { name: 'reader', scopes: ['read'] });
    const reader = admin.withToken(token.body.token as string);

    const [byViewer, byToken, renameByViewer, renameByToken] = await Promise.all([
      viewer.get('/api/workspace'),
      reader.get('/api/workspace'),
      viewer.put('/api/workspace', { name: 'Viewer was here' }),
      reader.put('/api/workspace', { name: 'Token was here' }),
    ]);

    expect([byViewer.status, byToken.status]).toEqual([200, 200]);
    expect(byViewer.body).toMatchObject({ id, plan: 'tight', member_count: 2 });
    expect([renameByViewer.status, renameByToken.status]).toEqual([403, 403]);
  });

  it("lists every workspace and changes a workspace's plan for the operator alone", async () => {
    const { admin, id } = await tenant();

    const [byAdmin, changeByAdmin] = await Promise.all([admin.get('/api/workspaces'), admin.put(`/api/workspaces/${id}`, { plan: 'tight' })]);
    const unknown = await operator.put(`/api/workspaces/${id}`, { plan: 'gold' });
    const changed = await operator.put(`/api/workspaces/${id}`, { plan: 'tight' });
    const listed = await operator.get('/api/workspaces?per_page=100');

    expect(byAdmin.status).toBe(403);
    expect(changeByAdmin.status).toBe(403);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ field: 'plan' });
    expect(changed.body).toMatchObject({ id, plan: 'tight' });
    expect(listed.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ id, plan: 'tight', status: 'active' })]));
  });

  it('refuses a member and an API token past the plan with 403 quota_exceeded', async () => {
    const { admin } = await tenant();
    await admin.addMember('viewer');
    await admin.post('/api/tokens', { name: 'first', scopes: ['read'] });

    const member = await admin.post('/api/users', { username: `third_${Date.now()}`, email: `third_${Date.now()}@example.com`, password: 'pw-third-secret', role: 'viewer' });
    const token = await admin.post('/api/tokens', { name: 'second', scopes: ['read'] });

    expect(member.status).toBe(403);
    expect(member.body.error.details).toEqual({ reason: 'quota_exceeded', quota: 'members', limit: 2, used: 2 });
    expect(token.status).toBe(403);
    expect(token.body.error.details).toEqual({ reason: 'quota_exceeded', quota: 'api_tokens', limit: 1, used: 1 });
  });

  it('never ends above the storage quota when 20 uploads race for its last room', async () => {
    const { admin, id } = await tenant();
    await operator.put(`/api/workspaces/${id}`, { plan: 'tight' });
    for (let i = 0; i < 5; i++) await admin.uploadDocument(`before-${i}.png`, FILE, { ocr_enabled: 'false' });

    const uploads = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const form = new FormData();
        form.append('ocr_enabled', 'false');
        form.append('file', new Blob([FILE]), `race-${i}.png`);
        return admin.upload('/api/documents/upload', form);
      }),
    );
    const { body } = await admin.get('/api/workspace');

    expect(uploads.filter((u) => u.status === 201)).toHaveLength(5);
    const refused = uploads.filter((u) => u.status !== 201);
    expect(refused.every((u) => u.status === 403 && u.body.error.details.reason === 'quota_exceeded' && u.body.error.details.quota === 'bytes_stored')).toBe(true);
    expect(quota(body, 'bytes_stored')).toEqual({ quota: 'bytes_stored', limit: FILE.byteLength * 10, used: FILE.byteLength * 10 });
    expect(body.usage.documents_stored).toBe(10);
  });

  it('ends an OCR run that would pass the month\'s pages failed with quota_exceeded, keeping its document', async () => {
    const { admin, id } = await tenant();
    await operator.put(`/api/workspaces/${id}`, { plan: 'pages' });

    const documentId = await admin.uploadDocument('two-pages.pdf', textPdf([['Page one of the invoice'], ['Page two of the invoice']]));
    const { body } = await eventually(() => admin.get(`/api/documents/${documentId}`), (r) => r.body.status === 'failed' || r.body.status === 'completed', 60_000, 'the OCR run ended');
    const { body: workspace } = await admin.get('/api/workspace');

    expect(body.status).toBe('failed');
    expect(body.failure_reason).toMatch(/^quota_exceeded/);
    expect(quota(workspace, 'ocr_pages_per_month')).toEqual({ quota: 'ocr_pages_per_month', limit: 1, used: 0 });
  });
});
