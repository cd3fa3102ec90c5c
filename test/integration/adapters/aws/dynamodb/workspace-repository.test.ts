import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoWorkspaceRepository } from '../../../../../shared/adapters/aws/dynamodb/workspace-repository';
import { workspaceKeys } from '../../../../../shared/adapters/aws/dynamodb/workspace-keys';
import { freshTable } from '../../../../support/aws-resources';

const ID = '22222222-2222-4222-8222-222222222222';
const NOW = '2026-11-23T12:00:00.000Z';

describe('DynamoWorkspaceRepository: plan, status and changes', () => {
  let db: Awaited<ReturnType<typeof freshTable>>['db'];
  let tableName: string;
  let workspaces: DynamoWorkspaceRepository;

  beforeEach(async () => {
    ({ db, tableName } = await freshTable());
    workspaces = new DynamoWorkspaceRepository(db, tableName, 'free', () => new Date(NOW));
  });

  it('reads a workspace stored before plans and statuses as on the default plan and active', async () => {
    await db.send(new PutCommand({ TableName: tableName, Item: { ...workspaceKeys.workspace(ID), id: ID, name: 'old', created_at: NOW } }));

    const workspace = await workspaces.findById(ID);

    expect(workspace).toEqual({ id: ID, name: 'old', created_at: NOW, plan: 'free', status: 'active' });
  });

  it('changes the plan and status and keeps the name', async () => {
    await workspaces.create({ id: ID, name: 'Acme', created_at: NOW });

    const changed = await workspaces.setPlanAndStatus(ID, { plan: 'team', status: 'suspended' });

    expect(changed).toMatchObject({ name: 'Acme', plan: 'team', status: 'suspended', updated_at: NOW });
    expect(await workspaces.findById(ID)).toMatchObject({ plan: 'team', status: 'suspended' });
  });

  it('renames without touching the plan or status', async () => {
    await workspaces.create({ id: ID, name: 'Acme', created_at: NOW, plan: 'team', status: 'suspended' });

    const renamed = await workspaces.updateName(ID, 'Acme GmbH');

    expect(renamed).toMatchObject({ name: 'Acme GmbH', plan: 'team', status: 'suspended' });
  });

  it('answers null for a change of a workspace that does not exist, and creates none', async () => {
    const changed = await workspaces.update(ID, { status: 'suspended' });

    expect(changed).toBeNull();
    expect(await workspaces.findById(ID)).toBeNull();
  });
});
