import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoErasureRepository } from '../../../../shared/adapters/aws/dynamodb/erasure-repository';
import { DynamoWorkspaceRepository } from '../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { SqsErasureQueue } from '../../../../shared/adapters/aws/sqs/erasure-queue';
import { deleteOwnWorkspace, deleteWorkspaceAsOperator, type RequestErasureDeps } from '../../../../shared/domain/erasure/request-erasure';
import { AppError } from '../../../../shared/domain/errors';
import type { Principal } from '../../../../shared/domain/principal';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../../shared/domain/workspaces/workspace';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';
import { takeQueued } from '../../../support/queued-messages';

/** Deletion requests over DynamoDB Local and the SQS emulator: the workspace's status, its deletion record, the queued message. */
describe('requesting a workspace erasure', () => {
  const sqs = testClients().sqs;
  let queueUrl: string;
  let deps: RequestErasureDeps & { clock: ManualClock; workspaces: DynamoWorkspaceRepository; erasures: DynamoErasureRepository };

  const aWorkspace = async () => {
    const workspace = { id: crypto.randomUUID(), name: `Acme ${crypto.randomUUID().slice(0, 6)}`, created_at: new Date().toISOString() };
    await deps.workspaces.create(workspace);
    return workspace;
  };
  const adminOf = (workspaceId: string, more: Partial<Principal> = {}): Principal => ({
    userId: crypto.randomUUID(),
    username: 'admin',
    email: 'admin@example.com',
    role: 'admin',
    workspaceId,
    jti: crypto.randomUUID(),
    tokenExpiresAt: new Date(Date.now() + 3600_000),
    ...more,
  });
  const operator = () => adminOf(BOOTSTRAP_WORKSPACE_ID, { operator: true });
  /** The workspace ids of the erasures queued since the last call. */
  const queuedIds = async () => (await takeQueued<{ workspace_id: string }>(sqs, queueUrl)).map((message) => message.workspace_id);

  beforeAll(async () => {
    const { db, tableName } = await freshTable();
    ({ queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('erasure'), { visibilityTimeoutSeconds: 30 }));
    deps = {
      clock: new ManualClock(new Date('2026-11-29T10:00:00Z')),
      workspaces: new DynamoWorkspaceRepository(db, tableName),
      erasures: new DynamoErasureRepository(db, tableName),
      erasureQueue: new SqsErasureQueue(sqs, queueUrl),
    };
  });

  describe('deleteOwnWorkspace', () => {
    it('marks the workspace deleting, stores who asked and queues its erasure', async () => {
      // Arrange
      const workspace = await aWorkspace();
      const admin = adminOf(workspace.id);

      // Act
      const accepted = await deleteOwnWorkspace(deps, admin, workspace.name);

      // Assert
      expect(accepted).toEqual({ workspace_id: workspace.id, status: 'deleting', requested_at: '2026-11-29T10:00:00.000Z' });
      expect((await deps.workspaces.findById(workspace.id))?.status).toBe('deleting');
      expect(await deps.erasures.find(workspace.id)).toMatchObject({
        workspace_name: workspace.name,
        requested_by: { user_id: admin.userId, operator: false },
        status: 'erasing',
        steps_done: [],
      });
      expect(await queuedIds()).toEqual([workspace.id]);
    });

    it('refuses a confirm that is not exactly the workspace name, naming the field, and changes nothing', async () => {
      // Arrange
      const workspace = await aWorkspace();

      // Act
      const refused = await deleteOwnWorkspace(deps, adminOf(workspace.id), `${workspace.name} `).catch((error: unknown) => error);

      // Assert
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'confirm' } });
      expect((await deps.workspaces.findById(workspace.id))?.status).toBe('active');
      expect(await deps.erasures.find(workspace.id)).toBeNull();
    });

    it("refuses to delete the operator's own workspace, with 409 DUPLICATE_RESOURCE and the reason", async () => {
      // Arrange
      const caller = operator();

      // Act
      const refused = await deleteOwnWorkspace(deps, caller, 'Default workspace').catch((error: unknown) => error);

      // Assert
      expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator_workspace', workspace_id: BOOTSTRAP_WORKSPACE_ID } });
    });

    it('keeps the first request’s record when asked again, and queues the erasure once more', async () => {
      // Arrange
      const workspace = await aWorkspace();
      const admin = adminOf(workspace.id);
      await deleteOwnWorkspace(deps, admin, workspace.name);
      const first = await deps.erasures.find(workspace.id);
      await queuedIds();
      deps.clock.advanceSeconds(60);

      // Act
      const again = await deleteOwnWorkspace(deps, admin, workspace.name);

      // Assert
      expect(again.requested_at).toBe(first?.requested_at);
      expect(await deps.erasures.find(workspace.id)).toEqual(first);
      expect(await queuedIds()).toEqual([workspace.id]);
    });
  });

  describe('deleteWorkspaceAsOperator', () => {
    it('erases any other workspace, recording the operator and the API token it used', async () => {
      // Arrange
      const workspace = await aWorkspace();
      const caller = operator();
      const byToken = { ...caller, apiToken: { id: 'token-1', scopes: ['admin'] } };

      // Act
      await deleteWorkspaceAsOperator(deps, byToken, workspace.id);

      // Assert
      expect((await deps.erasures.find(workspace.id))?.requested_by).toEqual({ user_id: caller.userId, token_id: 'token-1', operator: true });
      expect(await queuedIds()).toEqual([workspace.id]);
    });

    it('answers NOT_FOUND for a workspace that does not exist, and queues nothing', async () => {
      // Arrange
      const unknown = crypto.randomUUID();

      // Act
      const refused = await deleteWorkspaceAsOperator(deps, operator(), unknown).catch((error: unknown) => error);

      // Assert
      expect(refused).toMatchObject({ code: 'NOT_FOUND' });
      expect(await queuedIds()).toEqual([]);
    });

    it("refuses the operator's own workspace though it is named by id", async () => {
      // Arrange
      const caller = operator();

      // Act
      const refused = await deleteWorkspaceAsOperator(deps, caller, BOOTSTRAP_WORKSPACE_ID).catch((error: unknown) => error);

      // Assert
      expect(refused).toMatchObject({ code: 'DUPLICATE_RESOURCE', details: { reason: 'operator_workspace' } });
    });
  });
});
