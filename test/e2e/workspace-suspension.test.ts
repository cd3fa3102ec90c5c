import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { ChannelClient } from '../support/ws-client';
import { E2E_ADMIN } from './global-setup';

const baseUrl = inject('baseUrl');

/** The operator suspends a workspace: its users, tokens and connections are refused at once; resuming restores them. */
describe('a suspended workspace', () => {
  const anonymous = new ApiClient(baseUrl);
  let operator: ApiClient;
  const opened: ChannelClient[] = [];
  const suspended = { code: 'FORBIDDEN', details: { reason: 'workspace_suspended' } };

  const setStatus = (id: string, status: 'active' | 'suspended') => operator.put(`/api/workspaces/${id}`, { status });
  const tenant = async () => {
    const { client: admin } = await anonymous.signUp('tenant');
    const { body: workspace } = await admin.get('/api/workspace');
    const token = await admin.post('/api/tokens', { name: 'integration', scopes: ['read', 'write'] });
    return { admin, id: workspace.id as string, apiToken: admin.withToken(token.body.token as string) };
  };

  beforeAll(async () => {
    operator = await anonymous.login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });

  it("refuses every request of its users and API tokens with 403 workspace_suspended from the operator's next request on", async () => {
    const { admin, id, apiToken } = await tenant();

    const change = await setStatus(id, 'suspended');
    const [list, read, write, byToken] = await Promise.all([
      admin.get('/api/documents'),
      admin.get('/api/workspace'),
      admin.post('/api/labels', { name: 'blocked', color: '#123456' }),
      apiToken.get('/api/documents'),
    ]);

    expect(change.status).toBe(200);
    expect(change.body).toMatchObject({ id, status: 'suspended' });
    for (const response of [list, read, write, byToken]) {
      expect(response.status).toBe(403);
      expect(response.body.error).toMatchObject(suspended);
    }
  });

  it('closes its WebSocket connections with workspace_suspended and refuses a new one', async () => {
    const { admin, id } = await tenant();
    const channel = await ChannelClient.authenticated(baseUrl, admin.token!);
    opened.push(channel);

    await setStatus(id, 'suspended');
    const { code } = await channel.closed;
    const again = await ChannelClient.open(baseUrl);
    opened.push(again);
    const refused = await again.auth(admin.token!);

    expect(code).toBe(1000);
    expect(channel.received.at(-1)).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED', details: { reason: 'workspace_suspended' } } });
    expect(refused).toMatchObject({ type: 'error', data: { code: 'UNAUTHORIZED' } });
  });

  it('serves again once resumed, with its data as it was', async () => {
    const { admin, id, apiToken } = await tenant();
    const label = await admin.post('/api/labels', { name: 'kept', color: '#00aa00' });
    await setStatus(id, 'suspended');

    const resumed = await setStatus(id, 'active');
    const [labels, byToken, channel] = await Promise.all([admin.get('/api/labels'), apiToken.get('/api/documents'), ChannelClient.authenticated(baseUrl, admin.token!)]);
    opened.push(channel);

    expect(resumed.body).toMatchObject({ id, status: 'active' });
    expect(labels.status).toBe(200);
    expect(labels.body.labels ?? labels.body).toEqual(expect.arrayContaining([expect.objectContaining({ id: label.body.id })]));
    expect(byToken.status).toBe(200);
    expect(channel.isOpen).toBe(true);
  });

  it("never refuses the operator, and the operator's own workspace cannot be suspended", async () => {
    const { body: own } = await operator.get('/api/workspace');

    const refused = await setStatus(own.id, 'suspended');
    const still = await operator.get('/api/workspaces');

    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toMatchObject({ reason: 'operator_workspace' });
    expect(still.status).toBe(200);
  });
});
