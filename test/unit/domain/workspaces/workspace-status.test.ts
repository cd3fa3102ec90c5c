import { describe, expect, it } from 'vitest';
import type { WorkspaceRepository } from '../../../../shared/domain/workspaces/ports';
import type { Principal } from '../../../../shared/domain/principal';
import type { Workspace, WorkspaceStatus } from '../../../../shared/domain/workspaces/workspace';
import { rememberedWorkspaceStatus, requireServingWorkspace, workspaceServes } from '../../../../shared/domain/workspaces/workspace-status';

/** Workspaces in memory, counting the reads. */
const store = (status: WorkspaceStatus) => {
  const workspace: Workspace = { id: 'w', name: 'W', created_at: '2026-01-01T00:00:00Z', plan: 'free', status };
  const counter = { reads: 0 };
  const repository = {
    get reads() {
      return counter.reads;
    },
    create: async () => true,
    findById: async (id: string) => (counter.reads++, id === 'w' ? { ...workspace } : null),
    list: async () => [workspace],
    update: async (_id: string, changes: Partial<Workspace>) => Object.assign(workspace, changes),
    updateName: async (_id: string, name: string) => Object.assign(workspace, { name }),
    setPlanAndStatus: async (_id: string, changes: Partial<Workspace>) => Object.assign(workspace, changes),
  } satisfies WorkspaceRepository & { reads: number };
  return repository;
};
const caller = (overrides: Partial<Principal> = {}) => ({ userId: 'u', workspaceId: 'w', role: 'admin', ...overrides }) as Principal;

describe('requireServingWorkspace', () => {
  it.each(['suspended', 'deleting'] as const)('refuses a caller of a %s workspace with 403 workspace_suspended', async (status) => {
    const { reader } = rememberedWorkspaceStatus(store(status));

    const refusal = await requireServingWorkspace(reader, caller()).catch((error: unknown) => error);

    expect(refusal).toMatchObject({ status: 403, details: { reason: 'workspace_suspended' } });
  });

  it('lets the operator through whatever the status', async () => {
    const { reader } = rememberedWorkspaceStatus(store('suspended'));

    await expect(requireServingWorkspace(reader, caller({ operator: true }))).resolves.toMatchObject({ userId: 'u' });
  });
});

describe('rememberedWorkspaceStatus', () => {
  it('reads a workspace once within the time it is remembered', async () => {
    const repository = store('active');
    const { reader } = rememberedWorkspaceStatus(repository, 2000, () => 1000);

    await reader.status('w');
    await reader.status('w');
    const plan = await reader.plan('w');

    expect(repository.reads).toBe(1);
    expect(plan).toBe('free');
  });

  it('reads again once the time is up', async () => {
    const repository = store('active');
    let now = 0;
    const { reader } = rememberedWorkspaceStatus(repository, 2000, () => now);
    await reader.status('w');
    repository.setPlanAndStatus('w', { status: 'suspended' });

    now = 2001;

    expect(await reader.status('w')).toBe('suspended');
  });

  it('forgets at once what its own repository changed', async () => {
    const { reader, repository } = rememberedWorkspaceStatus(store('active'), 60_000, () => 0);
    await reader.status('w');

    await repository.setPlanAndStatus('w', { status: 'suspended' });

    expect(await workspaceServes(reader, 'w')).toBe(false);
  });

  it('reads a workspace that does not exist as serving', async () => {
    const { reader } = rememberedWorkspaceStatus(store('active'));

    expect(await workspaceServes(reader, 'missing')).toBe(true);
  });
});
