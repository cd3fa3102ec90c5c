import { beforeAll, describe, expect, it } from 'vitest';
import { createUsersHandler, type UsersDeps } from '../../../../functions/users/handler';
import { dynamoLegacyItems } from '../../../../shared/container/kit/legacy-data';
import { login } from '../../../../shared/domain/auth/login';
import { createWorkspaceUser } from '../../../../shared/domain/users/create-workspace-user';
import { ensureAdmin } from '../../../../shared/domain/users/ensure-admin';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import { testKit } from '../../../support/test-kit';
import type { RequestGate } from '../../../../shared/container/kit/request-gate';
import type { WorkspaceTableStores } from '../../../../shared/container/kit/workspace-data';
import { aDocumentRecord, ManualClock } from '../../../support/builders';
import { httpEvent, lambdaTestContext } from '../../../support/http-events';

const SECOND = '22222222-2222-4222-8222-222222222222';
const operatorAccount = { username: 'operator', email: 'operator@example.com', password: 'operator-password' };
const password = 'member-password';

/** GET /api/usage and GET /api/usage/workspaces through the users function, over the kit's stores. */
describe('usage endpoints', () => {
  let c: UsersDeps & RequestGate;
  let documentsOf: (workspaceId: string) => Pick<WorkspaceTableStores, 'documents'>;
  let handler: ReturnType<typeof createUsersHandler>;
  const tokens: Record<'operator' | 'admin' | 'editor', string> = { operator: '', admin: '', editor: '' };

  const call = async (routeKey: string, who: keyof typeof tokens, query?: Record<string, string>) => {
    const event = httpEvent(routeKey, { headers: { authorization: `Bearer ${tokens[who]}` }, ...(query ? { query } : {}) });
    const response = await handler(event, lambdaTestContext);
    return { status: response.statusCode, body: JSON.parse(response.body as string) };
  };

  beforeAll(async () => {
    const kit = await testKit({ clock: new ManualClock(new Date('2026-03-10T08:00:00Z')) });
    c = { ...kit.gate, passwords: kit.passwords, connections: kit.connections, quotaCounts: kit.quotaCounts, apiTokenMaxDays: kit.env.API_TOKEN_MAX_DAYS };
    documentsOf = kit.stores('documents');
    handler = createUsersHandler(c);
    await ensureAdmin({ ...c, legacyData: dynamoLegacyItems(kit.db, kit.tableName) }, operatorAccount);
    tokens.operator = (await login(c, { username: 'operator', password: operatorAccount.password })).token;
    const operator = await c.authenticate(tokens.operator);
    await c.workspaces.create({ id: SECOND, name: 'second', created_at: '2026-03-01T00:00:00.000Z' });
    const inSecond = { ...operator, workspaceId: SECOND, operator: false };
    await createWorkspaceUser(c, inSecond, { username: 'second_admin', email: 'second_admin@example.com', password, role: 'admin' });
    await createWorkspaceUser(c, inSecond, { username: 'second_editor', email: 'second_editor@example.com', password, role: 'editor' });
    tokens.admin = (await login(c, { username: 'second_admin', password })).token;
    tokens.editor = (await login(c, { username: 'second_editor', password })).token;
    await documentsOf(SECOND).documents.create(aDocumentRecord({ size: 1234 }));
    await documentsOf(SECOND).documents.create(aDocumentRecord({ size: 66 }));
    await documentsOf(BOOTSTRAP_WORKSPACE_ID).documents.create(aDocumentRecord({ size: 5 }));
  });

  it("answers a workspace admin with their workspace's counters of the current month, this request counted", async () => {
    // Act
    const { status, body } = await call('GET /api/usage', 'admin');

    // Assert
    expect(status).toBe(200);
    expect(body).toEqual({
      workspace_id: SECOND,
      name: 'second',
      month: '2026-03',
      documents_stored: 2,
      bytes_stored: 1300,
      documents_uploaded: 2,
      documents_deleted: 0,
      bytes_uploaded: 1300,
      bytes_deleted: 0,
      pages_ocred: 0,
      pages_ocred_by_engine: {},
      search_requests: 0,
      api_requests: 1,
    });
  });

  it('answers the month asked for', async () => {
    // Act
    const { status, body } = await call('GET /api/usage', 'admin', { month: '2026-02' });

    // Assert
    expect(status).toBe(200);
    expect(body).toMatchObject({ workspace_id: SECOND, month: '2026-02', documents_uploaded: 0, documents_stored: 0, api_requests: 0 });
  });

  it('refuses a month that is not YYYY-MM', async () => {
    // Act
    const { status, body } = await call('GET /api/usage', 'admin', { month: '2026-13' });

    // Assert
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'month' } });
  });

  it('refuses an editor', async () => {
    // Act
    const { status, body } = await call('GET /api/usage', 'editor');

    // Assert
    expect(status).toBe(403);
    expect(body.error.code).toBe('FORBIDDEN');
  });

  it("refuses a workspace admin who is not the operator every workspace's usage", async () => {
    // Act
    const { status, body } = await call('GET /api/usage/workspaces', 'admin');

    // Assert
    expect(status).toBe(403);
    expect(body.error.code).toBe('FORBIDDEN');
  });

  it("gives the operator every workspace's counters", async () => {
    // Act
    const { status, body } = await call('GET /api/usage/workspaces', 'operator', { month: '2026-03' });

    // Assert
    expect(status).toBe(200);
    expect(body.month).toBe('2026-03');
    const rows = new Map(body.workspaces.map((row: { workspace_id: string }) => [row.workspace_id, row]));
    expect([...rows.keys()].sort()).toEqual([BOOTSTRAP_WORKSPACE_ID, SECOND]);
    expect(rows.get(BOOTSTRAP_WORKSPACE_ID)).toMatchObject({ month: '2026-03', documents_stored: 1, bytes_stored: 5 });
    expect(rows.get(SECOND)).toMatchObject({ name: 'second', month: '2026-03', documents_stored: 2, bytes_stored: 1300 });
  });
});
