import { describe, expect, it } from 'vitest';
import type { SessionEndReason, SessionSelector } from '../../../../shared/domain/connections/ports';
import { parsePlans } from '../../../../shared/domain/quotas/plans';
import { changeWorkspace, listWorkspaces, type ManageWorkspacesDeps } from '../../../../shared/domain/workspaces/manage-workspaces';
import { BOOTSTRAP_WORKSPACE_ID, type Workspace } from '../../../../shared/domain/workspaces/workspace';
import { noUsage } from '../../../../shared/domain/usage/usage';
import { ManualClock } from '../../../support/builders';

const limits = { documents_stored: 'unlimited', bytes_stored: 'unlimited', ocr_pages_per_month: 'unlimited', sources: 'unlimited', members: 'unlimited', api_tokens: 'unlimited' };
const plans = parsePlans(JSON.stringify({ free: { ...limits, members: 3 }, team: limits }), 'free');
const ID = '11111111-1111-4111-8111-111111111111';

const setup = (status: Workspace['status'] = 'active') => {
  const workspaces = new Map<string, Workspace>([
    [ID, { id: ID, name: 'Acme', created_at: '2026-01-01T00:00:00Z', plan: 'free', status }],
    [BOOTSTRAP_WORKSPACE_ID, { id: BOOTSTRAP_WORKSPACE_ID, name: 'Ops', created_at: '2025-01-01T00:00:00Z', plan: 'free', status: 'active' }],
  ]);
  const ended: [SessionSelector, SessionEndReason][] = [];
  const deps: ManageWorkspacesDeps = {
    workspaces: {
      findById: async (id) => (workspaces.has(id) ? { ...workspaces.get(id)! } : null),
      list: async () => [...workspaces.values()].sort((a, b) => a.created_at.localeCompare(b.created_at)),
      updateName: async (id, name) => (workspaces.has(id) ? Object.assign(workspaces.get(id)!, { name }) : null),
      setPlanAndStatus: async (id, changes) =>
        workspaces.has(id) ? Object.assign(workspaces.get(id)!, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined))) : null,
    },
    users: { list: async (id) => (id === ID ? [{ id: 'alice' }, { id: 'bob' }] : []) },
    connections: { endSessions: async (selector, reason) => (ended.push([selector, reason]), []), moveSessions: async () => [] },
    usage: { month: async () => ({ ...noUsage(), api_requests: 7 }) },
    plans,
    clock: new ManualClock(new Date('2026-11-29T08:00:00Z')),
    held: async () => ({ members: 2, sources: 0, api_tokens: 1 }),
  };
  return { deps, ended, workspaces };
};

describe('changeWorkspace', () => {
  it('moves a workspace to another plan and answers it with the new plan\'s quotas', async () => {
    const { deps } = setup();

    const changed = await changeWorkspace(deps, ID, { plan: 'team' });

    expect(changed).toMatchObject({ plan: 'team', status: 'active', member_count: 2, usage: { month: '2026-11', api_requests: 7 } });
    expect(changed.quotas.find((q) => q.quota === 'members')).toEqual({ quota: 'members', limit: 'unlimited', used: 2 });
  });

  it('refuses a plan that is not configured with 400 naming the field', async () => {
    const { deps } = setup();

    const refusal = await changeWorkspace(deps, ID, { plan: 'gold' }).catch((error: unknown) => error);

    expect(refusal).toMatchObject({ status: 400, details: { field: 'plan' } });
  });

  it("ends every member's WebSocket sessions when it suspends the workspace", async () => {
    const { deps, ended } = setup();

    await changeWorkspace(deps, ID, { status: 'suspended' });

    expect(ended).toEqual([
      [{ userId: 'alice' }, 'workspace_suspended'],
      [{ userId: 'bob' }, 'workspace_suspended'],
    ]);
  });

  it("refuses to suspend the operator's own workspace, and to change one being deleted (409)", async () => {
    const { deps } = setup('deleting');

    const own = await changeWorkspace(deps, BOOTSTRAP_WORKSPACE_ID, { status: 'suspended' }).catch((error: unknown) => error);
    const deleting = await changeWorkspace(deps, ID, { status: 'active' }).catch((error: unknown) => error);

    expect(own).toMatchObject({ status: 409, details: { reason: 'operator_workspace' } });
    expect(deleting).toMatchObject({ status: 409, details: { reason: 'workspace_deleting' } });
  });

  it('answers 404 for a workspace that does not exist', async () => {
    const { deps } = setup();

    const refusal = await changeWorkspace(deps, '22222222-2222-4222-8222-222222222222', { status: 'suspended' }).catch((error: unknown) => error);

    expect(refusal).toMatchObject({ status: 404 });
  });
});

describe('listWorkspaces', () => {
  it('pages every workspace, oldest first, each with its plan, status and usage', async () => {
    const { deps } = setup();

    const page = await listWorkspaces(deps, { page: 1, perPage: 1 });

    expect(page.data.map((w) => w.id)).toEqual([BOOTSTRAP_WORKSPACE_ID]);
    expect(page.pagination).toMatchObject({ total: 2, has_next: true });
  });
});
