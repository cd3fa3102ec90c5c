import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoWebhookRepository } from '../../../../../shared/adapters/aws/dynamodb/webhook-repository';
import { type WebhookRecord } from '../../../../../shared/domain/webhooks/ports';
import { freshTable } from '../../../../support/aws-resources';

let db: Awaited<ReturnType<typeof freshTable>>['db'];
let tableName: string;

beforeAll(async () => {
  ({ db, tableName } = await freshTable());
});

/** A workspace of its own per test: the table is shared by the file's tests. */
const aWorkspace = () => `w-${crypto.randomUUID()}`;
const webhooksOf = (workspaceId: string) => new DynamoWebhookRepository(db, tableName, workspaceId);

const anEndpoint = (workspaceId: string, overrides: Partial<WebhookRecord> = {}): WebhookRecord => ({
  id: crypto.randomUUID(),
  workspace_id: workspaceId,
  url: 'https://hooks.example.com/in',
  events: ['document.uploaded', 'ocr.completed'],
  description: 'CRM',
  active: true,
  disabled_reason: null,
  failing_since: null,
  secrets: [{ sealed: 'sealed-1', created_at: '2099-03-01T10:00:00.000Z', expires_at: null }],
  created_by: 'admin',
  created_at: '2099-03-01T10:00:00.000Z',
  updated_at: '2099-03-01T10:00:00.000Z',
  ...overrides,
});

// Fixture times lie in the future: DynamoDB Local deletes, at any moment, an item whose TTL (a delivery's
// created_at + 30 days) has passed, which would take a past-dated delivery away mid-test.
const NOW = '2099-03-01T10:00:05.000Z';

describe('DynamoWebhookRepository', () => {
  it('stores an endpoint and gives it back as it was stored', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = webhooksOf(workspace);
    const endpoint = anEndpoint(workspace);

    // Act
    const outcome = await repo.create(endpoint, 20);

    // Assert
    expect(outcome).toBe('created');
    expect(await repo.get(endpoint.id)).toEqual(endpoint);
    expect(await repo.get(crypto.randomUUID())).toBeNull();
  });

  it('lists the endpoints of the workspace oldest first', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = webhooksOf(workspace);
    const newer = anEndpoint(workspace, { created_at: '2099-03-02T00:00:00.000Z' });
    const older = anEndpoint(workspace, { created_at: '2099-03-01T00:00:00.000Z' });
    await repo.create(newer, 20);
    await repo.create(older, 20);

    // Act
    const listed = await repo.list();

    // Assert
    expect(listed).toEqual([older, newer]);
  });

  it('changes only the fields given, and answers the endpoint as it is now', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = webhooksOf(workspace);
    const endpoint = anEndpoint(workspace);
    await repo.create(endpoint, 20);

    // Act
    const updated = await repo.update(endpoint.id, { active: false, disabled_reason: 'gone', description: undefined, updated_at: NOW });

    // Assert
    const expected = { ...endpoint, active: false, disabled_reason: 'gone', updated_at: NOW };
    expect(updated).toEqual(expected);
    expect(await repo.get(endpoint.id)).toEqual(expected);
  });

  it('answers null to an update of an unknown endpoint and does not create it', async () => {
    // Arrange
    const repo = webhooksOf(aWorkspace());
    const id = crypto.randomUUID();

    // Act
    const updated = await repo.update(id, { active: false });

    // Assert
    expect(updated).toBeNull();
    expect(await repo.get(id)).toBeNull();
  });

  it('deletes an endpoint once', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = webhooksOf(workspace);
    const endpoint = anEndpoint(workspace);
    await repo.create(endpoint, 20);

    // Act
    const first = await repo.delete(endpoint.id);
    const second = await repo.delete(endpoint.id);

    // Assert
    expect(first).toBe(true);
    expect(second).toBe(false);
    expect(await repo.get(endpoint.id)).toBeNull();
    expect(await repo.list()).toEqual([]);
  });

  it('holds a workspace to the limit, even when the creates race', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = webhooksOf(workspace);
    const endpoints = Array.from({ length: 5 }, () => anEndpoint(workspace));

    // Act
    const outcomes = await Promise.all(endpoints.map((endpoint) => repo.create(endpoint, 3)));

    // Assert
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome === 'limit')).toHaveLength(2);
    expect(await repo.list()).toHaveLength(3);
  });

  it('frees a place with each deletion, but not with the deletion of an unknown endpoint', async () => {
    // Arrange
    const workspace = aWorkspace();
    const repo = webhooksOf(workspace);
    const endpoints = Array.from({ length: 2 }, () => anEndpoint(workspace));
    for (const endpoint of endpoints) await repo.create(endpoint, 2);
    await repo.delete(crypto.randomUUID());
    expect(await repo.create(anEndpoint(workspace), 2)).toBe('limit');

    // Act
    await repo.delete(endpoints[0]!.id);

    // Assert
    expect(await repo.create(anEndpoint(workspace), 2)).toBe('created');
    expect(await repo.create(anEndpoint(workspace), 2)).toBe('limit');
  });

  it("never shows, changes or deletes another workspace's endpoints, nor counts them", async () => {
    // Arrange
    const [mine, theirs] = [aWorkspace(), aWorkspace()];
    const endpoint = anEndpoint(mine);
    await webhooksOf(mine).create(endpoint, 1);
    const other = webhooksOf(theirs);

    // Act
    const seen = { get: await other.get(endpoint.id), list: await other.list(), update: await other.update(endpoint.id, { active: false }), delete: await other.delete(endpoint.id) };

    // Assert
    expect(seen).toEqual({ get: null, list: [], update: null, delete: false });
    expect(await webhooksOf(mine).get(endpoint.id)).toEqual(endpoint);
    expect(await other.create(anEndpoint(theirs), 1)).toBe('created');
  });
});
