import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoUsageRepository } from '../../../../shared/adapters/aws/dynamodb/usage-repository';
import { DynamoWorkspaceRepository } from '../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { everyWorkspaceUsage, workspaceUsage, type UsageDeps } from '../../../../shared/domain/usage/get-usage';
import { noUsage } from '../../../../shared/domain/usage/usage';
import { freshTable } from '../../../support/aws-resources';
import { ManualClock } from '../../../support/builders';

/** Usage read over DynamoDB Local, with requests counted by the same repository's meter; a fresh table per test. */
describe('usage reports', () => {
  let deps: UsageDeps & { usage: DynamoUsageRepository; workspaces: DynamoWorkspaceRepository };

  const aWorkspace = async (name: string, createdAt: string) => {
    const workspace = { id: crypto.randomUUID(), name, created_at: createdAt };
    await deps.workspaces.create(workspace);
    return workspace;
  };

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    deps = {
      usage: new DynamoUsageRepository(db, tableName),
      workspaces: new DynamoWorkspaceRepository(db, tableName),
      clock: new ManualClock(new Date('2026-11-30T23:59:59Z')),
    };
  });

  describe('workspaceUsage', () => {
    it("answers the caller's workspace's counters for the month asked, with its name", async () => {
      // Arrange
      const workspace = await aWorkspace('Acme', '2026-01-01T00:00:00Z');
      await deps.usage.add(workspace.id, '2026-10', { api_requests: 7, search_requests: 2 });

      // Act
      const usage = await workspaceUsage(deps, { workspaceId: workspace.id }, '2026-10');

      // Assert
      expect(usage).toEqual({ ...noUsage(), workspace_id: workspace.id, name: 'Acme', month: '2026-10', api_requests: 7, search_requests: 2 });
    });

    it("reads the clock's current month (UTC) when none is asked", async () => {
      // Arrange
      const workspace = await aWorkspace('Acme', '2026-01-01T00:00:00Z');
      await deps.usage.add(workspace.id, '2026-11', { api_requests: 3 });
      await deps.usage.add(workspace.id, '2026-12', { api_requests: 100 });

      // Act
      const usage = await workspaceUsage(deps, { workspaceId: workspace.id });

      // Assert
      expect(usage).toMatchObject({ month: '2026-11', api_requests: 3 });
    });

    it('counts nothing of another workspace', async () => {
      // Arrange
      const [mine, theirs] = [await aWorkspace('Mine', '2026-01-01T00:00:00Z'), await aWorkspace('Theirs', '2026-01-02T00:00:00Z')];
      await deps.usage.add(theirs.id, '2026-11', { api_requests: 50, search_requests: 5 });

      // Act
      const usage = await workspaceUsage(deps, { workspaceId: mine.id });

      // Assert
      expect(usage).toMatchObject({ workspace_id: mine.id, api_requests: 0, search_requests: 0 });
    });

    it('answers zeros for a month without use', async () => {
      // Arrange
      const workspace = await aWorkspace('Acme', '2026-01-01T00:00:00Z');
      await deps.usage.add(workspace.id, '2026-11', { api_requests: 4 });

      // Act
      const usage = await workspaceUsage(deps, { workspaceId: workspace.id }, '2026-09');

      // Assert
      expect(usage).toEqual({ ...noUsage(), workspace_id: workspace.id, name: 'Acme', month: '2026-09' });
    });
  });

  describe('everyWorkspaceUsage', () => {
    it('answers every workspace, oldest first, each with its own counters', async () => {
      // Arrange
      const newer = await aWorkspace('Newer', '2026-03-01T00:00:00Z');
      const older = await aWorkspace('Older', '2026-02-01T00:00:00Z');
      await deps.usage.add(older.id, '2026-11', { api_requests: 1 });
      await deps.usage.add(newer.id, '2026-11', { api_requests: 2, search_requests: 1 });

      // Act
      const report = await everyWorkspaceUsage(deps);

      // Assert
      expect(report.month).toBe('2026-11');
      expect(report.workspaces.map(({ name, api_requests, search_requests }) => ({ name, api_requests, search_requests }))).toEqual([
        { name: 'Older', api_requests: 1, search_requests: 0 },
        { name: 'Newer', api_requests: 2, search_requests: 1 },
      ]);
    });

    it('reads more workspaces than it reads at once, keeping each row with its workspace', async () => {
      // Arrange
      const workspaces = [];
      for (let i = 0; i < 20; i++) {
        const workspace = await aWorkspace(`W${i}`, `2026-01-01T00:00:${String(i).padStart(2, '0')}Z`);
        await deps.usage.add(workspace.id, '2026-07', { api_requests: i + 1 });
        workspaces.push(workspace);
      }

      // Act
      const report = await everyWorkspaceUsage(deps, '2026-07');

      // Assert
      expect(report.workspaces.map((row) => [row.workspace_id, row.api_requests])).toEqual(workspaces.map((workspace, i) => [workspace.id, i + 1]));
    });

    it('answers no rows when there is no workspace', async () => {
      // Arrange: a fresh table

      // Act
      const report = await everyWorkspaceUsage(deps, '2026-11');

      // Assert
      expect(report).toEqual({ month: '2026-11', workspaces: [] });
    });
  });
});
