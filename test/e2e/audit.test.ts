import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { finishedSync } from '../support/sync-status';
import { eventually } from '../support/until';
import { startRcloneDav, type RunningDav } from '../support/webdav-servers';
import { E2E_ADMIN, E2E_SECOND_PLAN } from './global-setup';

const baseUrl = inject('baseUrl');

type Entry = { id: string; workspace_id: string; action: string; details?: Record<string, unknown>; actor: { user_id: string | null; token_id: string | null; ip: string | null; user_agent: string | null; request_id: string | null }; target: { type: string; id: string; name?: string } };

/**
 * The audit log (issue 37): a scripted session of a workspace's admin, each of whose changes the log names with
 * who, from where and in which request; nothing of another workspace; readable by the admins and the operator.
 */
describe('audit log', () => {
  const anonymous = new ApiClient(baseUrl);
  let admin: ApiClient;
  let adminId: string;
  let adminName: string;
  let workspaceId: string;
  let operator: ApiClient;
  let operatorId: string;
  let dav: RunningDav;
  let davRoot: string;
  const expected = new Map<string, string>();
  /** What the operator did to the workspace: each action with its target, the workspace. */
  const byOperator: string[] = [];

  const allEntries = async (client: ApiClient, query = ''): Promise<Entry[]> => {
    const entries: Entry[] = [];
    for (let page = 1; ; page++) {
      const response = await client.get(`/api/audit?per_page=100&page=${page}${query}`);
      if (response.status !== 200) throw new Error(`audit: ${response.status} ${JSON.stringify(response.body)}`);
      entries.push(...response.body.data);
      if (!response.body.pagination.has_next) return entries;
    }
  };

  beforeAll(async () => {
    operator = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
    operatorId = (await operator.get('/api/users/profile')).body.id;
    davRoot = await mkdtemp(join(tmpdir(), 'audited-source-'));
    dav = await startRcloneDav({ root: davRoot, username: 'sync', password: 'correct horse battery' });
    const signedUp = await anonymous.signUp('audited');
    admin = signedUp.client;
    adminId = signedUp.user.id;
    adminName = signedUp.user.username;
    workspaceId = (await admin.get('/api/workspace')).body.id;
    expected.set('login.succeeded', adminId);

    // The scripted session: one change of each kind, each remembered with its target.
    expect((await anonymous.post('/api/auth/login', { username: adminName, password: 'not-the-password' })).status).toBe(401);
    expected.set('login.failed', adminId);
    const label = await admin.post('/api/labels', { name: `audited-${Date.now()}`, color: '#112233' });
    expected.set('label.created', label.body.id);
    const documentId = await admin.uploadDocument('pixel.png', pngImage(8, 8), { ocr_enabled: 'false' });
    expected.set('document.created', documentId);
    expect((await admin.put(`/api/documents/${documentId}`, { title: 'Renamed for the audit' })).status).toBe(200);
    expected.set('document.updated', documentId);
    const token = await admin.post('/api/tokens', { name: 'ci', scopes: ['read'] });
    expected.set('token.created', token.body.id);
    expect((await admin.delete(`/api/tokens/${token.body.id}`)).status).toBe(204);
    expected.set('token.deleted', token.body.id);
    const webhook = await admin.post('/api/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['document.uploaded'] });
    expected.set('webhook.created', webhook.body.id);
    expect((await admin.delete(`/api/webhooks/${webhook.body.id}`)).status).toBe(204);
    expected.set('webhook.deleted', webhook.body.id);
    const member = await admin.post('/api/users', { username: `member_${Date.now()}`, email: `member_${Date.now()}@example.com`, password: 'pw-member-secret', role: 'viewer' });
    expected.set('user.created', member.body.id);
    expect((await admin.put(`/api/users/${member.body.id}`, { role: 'editor' })).status).toBe(200);
    expected.set('user.role_changed', member.body.id);
    expect((await admin.put('/api/settings', { theme: 'dark' })).status).toBe(200);
    expect((await admin.put('/api/workspace', { name: 'Audited workspace' })).status).toBe(200);
    expected.set('workspace.renamed', workspaceId);
    const rule = await admin.post('/api/rules', { name: 'invoices', match: { field: 'title', algorithm: 'any', pattern: 'invoice' }, add_labels: [label.body.id] });
    expected.set('rule.created', rule.body.id);
    expect((await admin.delete(`/api/documents/${documentId}`)).status).toBe(204);
    expected.set('document.deleted', documentId);
    expect((await admin.delete(`/api/labels/${label.body.id}`)).status).toBe(204);
    expected.set('label.deleted', label.body.id);
    // A source: created (its first sync starts at once), synced again on demand, renamed, deleted.
    const source = await admin.post('/api/sources', { name: 'Audited share', type: 'webdav', url: dav.url, username: dav.username, password: dav.password, sync_interval: 3600, recursive: true, file_patterns: ['*.pdf'] });
    expect(source.status).toBe(201);
    expected.set('source.created', source.body.id);
    await finishedSync(admin, source.body.id);
    const sync = await admin.post(`/api/sources/${source.body.id}/sync`, {});
    expect(sync.status).toBe(202);
    expected.set('source.sync_started', source.body.id);
    await finishedSync(admin, source.body.id, sync.body.job_id);
    expect((await admin.put(`/api/sources/${source.body.id}`, { name: 'Audited share, renamed' })).status).toBe(200);
    expected.set('source.updated', source.body.id);
    expect((await admin.delete(`/api/sources/${source.body.id}`)).status).toBe(204);
    expected.set('source.deleted', source.body.id);
    const exported = await admin.post('/api/workspace/exports', {});
    expect(exported.status).toBe(202);
    expected.set('export.requested', exported.body.id);
    // The operator changes the workspace's plan, suspends it and resumes it.
    expect((await operator.put(`/api/workspaces/${workspaceId}`, { plan: E2E_SECOND_PLAN })).status).toBe(200);
    byOperator.push('workspace.plan_changed');
    expect((await operator.put(`/api/workspaces/${workspaceId}`, { status: 'suspended' })).status).toBe(200);
    expect((await operator.put(`/api/workspaces/${workspaceId}`, { status: 'active' })).status).toBe(200);
    byOperator.push('workspace.status_changed');
  });

  afterAll(async () => {
    await dav?.stop();
    if (davRoot) await rm(davRoot, { recursive: true, force: true });
  });

  it("holds each change of the session with its actor's user, address, user agent and request", async () => {
    const entries = await eventually(
      () => allEntries(admin),
      (found) => [...expected].every(([action, target]) => found.some((entry) => entry.action === action && entry.target.id === target)),
      30_000,
      'every action of the session in the log',
    );

    for (const [action, target] of expected) {
      const entry = entries.find((candidate) => candidate.action === action && candidate.target.id === target)!;
      expect(entry.workspace_id).toBe(workspaceId);
      expect(entry.actor.ip, action).toBeTruthy();
      expect(entry.actor.request_id, action).toBeTruthy();
      if (action !== 'login.failed') expect(entry.actor.user_id, action).toBe(adminId);
    }
    expect(entries.some((entry) => entry.action.startsWith('settings.') && entry.actor.user_id === adminId)).toBe(true);
  });

  it("holds the operator's plan change, suspension and resumption of the workspace, with the operator as actor", async () => {
    const entries = await eventually(
      () => allEntries(operator, `&workspace_id=${workspaceId}&action=workspace`),
      (found) => byOperator.every((action) => found.some((entry) => entry.action === action)) && found.filter((entry) => entry.action === 'workspace.status_changed').length >= 2,
      30_000,
      "the operator's changes in the log",
    );

    const plan = entries.find((entry) => entry.action === 'workspace.plan_changed')!;
    const statuses = entries.filter((entry) => entry.action === 'workspace.status_changed').map((entry) => entry.details?.['status']);
    expect(plan).toMatchObject({ workspace_id: workspaceId, actor: { user_id: operatorId }, target: { type: 'workspace', id: workspaceId }, details: { plan: { to: E2E_SECOND_PLAN } } });
    expect(plan.actor.ip && plan.actor.request_id).toBeTruthy();
    expect(statuses).toEqual(expect.arrayContaining([{ from: 'active', to: 'suspended' }, { from: 'suspended', to: 'active' }]));
    expect(entries.filter((entry) => entry.action === 'workspace.status_changed').every((entry) => entry.actor.user_id === operatorId && entry.target.id === workspaceId)).toBe(true);
  });

  it('names the API token that acted', async () => {
    const created = await admin.post('/api/tokens', { name: 'writer', scopes: ['read', 'write'] });
    const viaToken = admin.withToken(created.body.token);
    const label = await viaToken.post('/api/labels', { name: `by-token-${Date.now()}`, color: '#445566' });

    const entry = await eventually(
      async () => (await allEntries(admin, '&action=label.created')).find((candidate) => candidate.target.id === label.body.id),
      (found) => found !== undefined,
      30_000,
      'the token-made label in the log',
    );

    expect(entry!.actor).toMatchObject({ user_id: adminId, token_id: created.body.id });
  });

  it('holds nothing of another workspace, and shows another workspace nothing of it', async () => {
    const other = await anonymous.signUp('unrelated');
    await other.client.post('/api/labels', { name: 'theirs', color: '#000000' });
    await eventually(() => allEntries(other.client), (found) => found.some((entry) => entry.action === 'label.created'), 30_000, 'the other workspace logged');

    const ours = await allEntries(admin);
    const theirs = await allEntries(other.client);

    expect(ours.every((entry) => entry.workspace_id === workspaceId)).toBe(true);
    expect(ours.some((entry) => entry.actor.user_id === other.user.id)).toBe(false);
    expect(theirs.some((entry) => entry.workspace_id === workspaceId || entry.actor.user_id === adminId)).toBe(false);
  });

  it("filters by actor, action and target, and the operator reads any workspace's log", async () => {
    const byAction = await allEntries(admin, '&action=document');
    const byTarget = await allEntries(admin, `&target=${expected.get('document.created')}`);
    const viaOperator = await allEntries(operator, `&workspace_id=${workspaceId}`);

    expect(byAction.length).toBeGreaterThan(0);
    expect(byAction.every((entry) => entry.action.startsWith('document.'))).toBe(true);
    expect(byTarget.map((entry) => entry.action)).toEqual(expect.arrayContaining(['document.created', 'document.deleted']));
    expect(viaOperator.length).toBeGreaterThan(0);
    expect(viaOperator.every((entry) => entry.workspace_id === workspaceId)).toBe(true);
  });

  it("refuses members who are not admins, and an admin naming a workspace", async () => {
    const { client: editor } = await admin.addMember('editor');

    expect((await editor.get('/api/audit')).status).toBe(403);
    expect((await admin.get(`/api/audit?workspace_id=${workspaceId}`)).status).toBe(403);
  });

  it('has no route that changes an entry', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect((await admin.request(method, '/api/audit', {})).status, method).toBe(404);
    }
  });
});
