import { beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { eventually } from '../support/until';
import { E2E_ADMIN } from './global-setup';

const baseUrl = inject('baseUrl');

/** Deleting a workspace (issue 37): who may, what confirms it, and that it is refused at once and then erased. */
describe('workspace deletion', () => {
  const anonymous = new ApiClient(baseUrl);
  let operator: ApiClient;

  beforeAll(async () => {
    operator = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  const newWorkspace = async (prefix: string) => {
    const signedUp = await anonymous.signUp(prefix);
    const { body } = await signedUp.client.get('/api/workspace');
    return { ...signedUp, workspaceId: body.id as string, name: body.name as string };
  };

  it('refuses a deletion without confirm, naming the field', async () => {
    const { client } = await newWorkspace('del_missing');

    const response = await client.request('DELETE', '/api/workspace', {});

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'confirm' } });
  });

  it('refuses a confirm that is not the workspace name, naming the field', async () => {
    const { client, name } = await newWorkspace('del_wrong');

    const response = await client.request('DELETE', '/api/workspace', { confirm: name.toUpperCase() });

    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'confirm' } });
    expect((await client.get('/api/workspace')).body.status).toBe('active');
  });

  it('refuses an editor of the workspace', async () => {
    const { client, name } = await newWorkspace('del_editor');
    const { client: editor } = await client.addMember('editor');

    const response = await editor.request('DELETE', '/api/workspace', { confirm: name });

    expect(response.status).toBe(403);
  });

  it("refuses another workspace's deletion to an admin who is not the operator", async () => {
    const { client } = await newWorkspace('del_notop');
    const other = await newWorkspace('del_target');

    const response = await client.delete(`/api/workspaces/${other.workspaceId}`);

    expect(response.status).toBe(403);
    expect((await other.client.get('/api/workspace')).body.status).toBe('active');
  });

  it("refuses the operator's own workspace", async () => {
    const own = (await operator.get('/api/workspace')).body.id as string;

    const response = await operator.delete(`/api/workspaces/${own}`);

    expect(response.status).toBe(409);
    expect(response.body.error.details).toMatchObject({ reason: 'operator_workspace' });
  });

  it('answers 404 for a workspace that does not exist', async () => {
    const response = await operator.delete(`/api/workspaces/${crypto.randomUUID()}`);

    expect(response.status).toBe(404);
  });

  it("refuses a workspace's users at once after its admin deleted it, then erases them, and leaves another workspace as it was", async () => {
    const doomed = await newWorkspace('del_admin');
    const { client: viewer } = await doomed.client.addMember('viewer');
    await doomed.client.uploadDocument('pixel.png', pngImage(8, 8), { ocr_enabled: 'false' });
    const neighbour = await newWorkspace('del_neighbour');
    const kept = await neighbour.client.uploadDocument('pixel.png', pngImage(8, 8), { ocr_enabled: 'false' });

    const response = await doomed.client.request('DELETE', '/api/workspace', { confirm: doomed.name });

    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ workspace_id: doomed.workspaceId, status: 'deleting' });
    expect((await viewer.get('/api/documents')).status).toBe(403);
    await eventually(
      () => anonymous.post('/api/auth/login', { username: doomed.user.username, password: doomed.password }),
      (login) => login.status === 401,
      60_000,
      'the erased admin refused at login',
    );
    expect((await neighbour.client.get(`/api/documents/${kept}`)).status).toBe(200);
    expect((await neighbour.client.bytes(`/api/documents/${kept}/download`)).status).toBe(200);
  });

  it("leaves the operator the deletion's record: the workspace marked deleting, and its request and erasure in its audit log", async () => {
    const doomed = await newWorkspace('del_record');

    await doomed.client.request('DELETE', '/api/workspace', { confirm: doomed.name });

    const audit = await eventually(
      () => operator.get(`/api/audit?workspace_id=${doomed.workspaceId}&action=workspace&per_page=100`),
      (response) => response.body.data.some((entry: { action: string }) => entry.action === 'workspace.erased'),
      60_000,
      'the erasure in the audit log',
    );
    const actions = audit.body.data.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['workspace.deletion_requested', 'workspace.erased', 'workspace.status_changed']));
    const requested = audit.body.data.find((entry: { action: string }) => entry.action === 'workspace.deletion_requested');
    expect(requested.actor.user_id).toBe(doomed.user.id);
    const listed = await operator.get('/api/workspaces?per_page=100');
    const all = [listed.body.data];
    for (let page = 2; page <= listed.body.pagination.total_pages; page++) all.push((await operator.get(`/api/workspaces?per_page=100&page=${page}`)).body.data);
    expect(all.flat().find((workspace: { id: string }) => workspace.id === doomed.workspaceId)).toMatchObject({ status: 'deleting' });
  });

  it('lets the operator delete a workspace, which refuses its admin at once', async () => {
    const doomed = await newWorkspace('del_byop');

    const response = await operator.delete(`/api/workspaces/${doomed.workspaceId}`);

    expect(response.status).toBe(202);
    expect(response.body).toMatchObject({ workspace_id: doomed.workspaceId, status: 'deleting' });
    expect((await doomed.client.get('/api/workspace')).status).toBe(403);
    await eventually(
      () => anonymous.post('/api/auth/login', { username: doomed.user.username, password: doomed.password }),
      (login) => login.status === 401,
      60_000,
      'the erased admin refused at login',
    );
  });
});
