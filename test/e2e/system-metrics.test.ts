import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiClient } from '../support/api-client';
import { ChannelClient } from '../support/ws-client';
import { E2E_ADMIN } from './global-setup';

const baseUrl = inject('baseUrl');

describe('GET /api/metrics/system (operator)', () => {
  let admin: ApiClient;
  const opened: ChannelClient[] = [];

  beforeAll(async () => {
    admin = await new ApiClient(baseUrl).login(E2E_ADMIN.username, E2E_ADMIN.password);
  });

  afterAll(async () => {
    await Promise.all(opened.map((client) => client.close()));
  });

  it('reports the machine as percentages and the uptime in whole seconds', async () => {
    const response = await admin.get('/api/metrics/system');

    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['active_connections', 'cpu_usage', 'disk_usage', 'memory_usage', 'uptime_seconds']);
    for (const field of ['cpu_usage', 'memory_usage', 'disk_usage'] as const) {
      expect(response.body[field]).toBeGreaterThanOrEqual(0);
      expect(response.body[field]).toBeLessThanOrEqual(100);
    }
    expect(response.body.memory_usage).toBeGreaterThan(0);
    expect(response.body.disk_usage).toBeGreaterThan(0);
    expect(Number.isInteger(response.body.uptime_seconds)).toBe(true);
    expect(response.body.uptime_seconds).toBeGreaterThan(0);
  });

  it('counts an authenticated WebSocket connection', async () => {
    const before = (await admin.get('/api/metrics/system')).body.active_connections as number;

    opened.push(await ChannelClient.authenticated(baseUrl, admin.token!));
    const after = (await admin.get('/api/metrics/system')).body.active_connections as number;

    expect(after).toBe(before + 1);
  });

  it('is refused to an admin who is not the operator', async () => {
    const suffix = crypto.randomUUID().slice(0, 8);
    const account = { username: `metrics_admin_${suffix}`, email: `metrics_admin_${suffix}@example.com`, password: `pw-${suffix}-secret` };
    const created = await admin.post('/api/users', { ...account, role: 'admin' });
    const otherAdmin = await new ApiClient(baseUrl).login(account.username, account.password);

    const response = await otherAdmin.get('/api/metrics/system');

    expect(created.status).toBe(201);
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: 'FORBIDDEN', details: { required_role: 'operator' } });
  });

  it('is refused to a member of the operator’s workspace who is not an admin', async () => {
    const { client } = await admin.addMember('viewer', 'metrics-viewer');

    const response = await client.get('/api/metrics/system');

    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('FORBIDDEN');
  });

  it('is refused without a token', async () => {
    const response = await new ApiClient(baseUrl).get('/api/metrics/system');

    expect(response.status).toBe(401);
  });
});
