import { PutCommand, ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditedItem } from '../../../../../shared/adapters/aws/dynamodb/audited-items';
import { DynamoDocumentRepository } from '../../../../../shared/adapters/aws/dynamodb/document-repository';
import { dataKeys } from '../../../../../shared/adapters/aws/dynamodb/keys';
import { LABEL_SHARDS } from '../../../../../shared/adapters/aws/dynamodb/label-membership';
import { DynamoLabelRepository } from '../../../../../shared/adapters/aws/dynamodb/label-repository';
import { AppError } from '../../../../../shared/domain/errors';
import type { Label } from '../../../../../shared/domain/labels/label';
import { freshTable } from '../../../../support/aws-resources';
import { aDocumentRecord } from '../../../../support/builders';

const aLabel = (name: string): Label => {
  const now = new Date().toISOString();
  return { id: crypto.randomUUID(), name, color: '#112233', description: null, document_count: 0, created_by: 'u', created_at: now, updated_at: now };
};

/** The client, counting the writes of every transaction per partition key. */
function countingClient(db: DynamoDBDocumentClient) {
  const writes = new Map<string, number>();
  const client = {
    send: (command: { input: unknown }) => {
      if (command instanceof TransactWriteCommand) {
        for (const item of command.input.TransactItems ?? []) {
          const key = (item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key) as { pk: string } | undefined;
          if (key) writes.set(key.pk, (writes.get(key.pk) ?? 0) + 1);
        }
      }
      return db.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  return { client, writes };
}

/** Items of the table whose partition key starts with `prefix`. */
async function itemsUnder(db: DynamoDBDocumentClient, tableName: string, prefix: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': prefix }, ExclusiveStartKey: cursor }));
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items;
}

/**
 * A label carried by very many documents (DynamoDB Local): its count and memberships spread over 16 partitions,
 * so that no partition takes every labelled upload; counts exact under concurrency; old labels keep their layout.
 */
describe('sharded labels', () => {
  let db: DynamoDBDocumentClient;
  let tableName: string;
  let workspaceId: string;
  let labels: DynamoLabelRepository;
  let documents: DynamoDocumentRepository;

  beforeEach(async () => {
    ({ db, tableName } = await freshTable());
    workspaceId = crypto.randomUUID();
    labels = new DynamoLabelRepository(db, tableName, workspaceId);
    documents = new DynamoDocumentRepository(db, tableName, workspaceId);
  });

  const upload = (labelIds: string[], repository = documents) => repository.create(aDocumentRecord({ id: crypto.randomUUID(), labels: labelIds }));

  it("writes a labelled upload's count and membership to one of the label's shards, never to its record", async () => {
    const label = aLabel('popular');
    await labels.create(label);
    const { client, writes } = countingClient(db);
    const counted = new DynamoDocumentRepository(client, tableName, workspaceId);

    await Promise.all(Array.from({ length: 160 }, () => upload([label.id], counted)));

    const labelRecord = dataKeys(workspaceId).label(label.id).pk;
    const shardWrites = [...writes].filter(([pk]) => pk.startsWith(`${labelRecord}#`)).map(([, count]) => count);
    expect(writes.get(labelRecord)).toBeUndefined();
    expect(shardWrites.reduce((a, b) => a + b, 0)).toBe(160 * 2);
    expect(shardWrites.length).toBe(LABEL_SHARDS);
    // 320 writes over 16 partitions: 20 each on average; none takes more than a fair share's double.
    expect(Math.max(...shardWrites)).toBeLessThanOrEqual(40);
  });

  it('counts exactly what concurrent uploads, assigns, edits and deletes leave, in the label and in its list', async () => {
    const label = aLabel('busy');
    await labels.create(label);
    const unlabelled = await Promise.all(Array.from({ length: 20 }, async () => { const d = aDocumentRecord({ id: crypto.randomUUID() }); await documents.create(d); return d.id; }));
    const labelled = await Promise.all(Array.from({ length: 30 }, async () => { const d = aDocumentRecord({ id: crypto.randomUUID(), labels: [label.id] }); await documents.create(d); return d.id; }));

    await Promise.all([
      labels.assign(label.id, unlabelled, new Date().toISOString()),
      ...labelled.slice(0, 5).map((id) => documents.delete(id)),
      ...labelled.slice(5, 10).map((id) => documents.update(id, { labels: [] }, new Date().toISOString())),
      ...Array.from({ length: 10 }, () => upload([label.id])),
    ]);

    const members = (await documents.list({ page: 1, perPage: 100, sort: 'created_at', order: 'asc', labelIds: [label.id] })).pagination.total;
    expect(members).toBe(20 + 30 - 10 + 10);
    expect((await labels.get(label.id))?.document_count).toBe(members);
    expect((await labels.list()).find((listed) => listed.id === label.id)?.document_count).toBe(members);
  });

  it('leaves no count or membership of a label deleted while uploads carry it, and no document carrying it', async () => {
    const label = aLabel('doomed');
    await labels.create(label);
    await Promise.all(Array.from({ length: 10 }, () => upload([label.id])));

    const outcomes = await Promise.allSettled([labels.delete(label.id), ...Array.from({ length: 20 }, () => upload([label.id]))]);

    const refused = outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason);
    expect(refused.every((reason) => reason instanceof AppError)).toBe(true);
    expect(await itemsUnder(db, tableName, dataKeys(workspaceId).label(label.id).pk)).toEqual([]);
    const listed = await documents.list({ page: 1, perPage: 100, sort: 'created_at', order: 'asc' });
    expect(listed.data.filter((document) => document.labels.includes(label.id))).toEqual([]);
  });

  it('renames a label carried by documents without losing its count', async () => {
    const label = aLabel('before');
    await labels.create(label);
    await Promise.all(Array.from({ length: 12 }, () => upload([label.id])));

    const renamed = await labels.update(label.id, { name: 'after' }, new Date().toISOString());

    expect(renamed).toMatchObject({ name: 'after', document_count: 12 });
    expect(await labels.get(label.id)).toMatchObject({ name: 'after', document_count: 12 });
  });

  it('keeps an old label (its count on its record, its memberships in its partition) working as before', async () => {
    // A label stored before labels were sharded: no shards, the count on the record.
    const label = aLabel('legacy');
    const keys = dataKeys(workspaceId);
    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.label(label.id), gsi1pk: keys.labelsIndex, gsi1sk: `legacy#${label.id}`, ...label } }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys.labelNameLock(label.name), label_id: label.id } }));

    await Promise.all(Array.from({ length: 6 }, () => upload([label.id])));
    const counted = await labels.get(label.id);
    const inPartition = (await itemsUnder(db, tableName, keys.label(label.id).pk)).filter((item) => String(item['sk']).startsWith('DOC#'));
    const deleted = await labels.delete(label.id);

    expect({ count: counted?.document_count, members: inPartition.length, deleted }).toEqual({ count: 6, members: 6, deleted: true });
    expect(inPartition.every((item) => item['pk'] === keys.label(label.id).pk)).toBe(true);
    expect(await itemsUnder(db, tableName, keys.label(label.id).pk)).toEqual([]);
  });

  it("has the audit log follow a sharded label's memberships as it follows an old label's", () => {
    const keys = dataKeys(workspaceId);
    const labelId = crypto.randomUUID();
    const documentId = crypto.randomUUID();

    const item = auditedItem(keys.labelShardMember(labelId, 3, documentId).pk, `DOC#${documentId}`);
    const count = auditedItem(keys.labelShardCount(labelId, 3).pk, 'COUNT');

    expect({ item, count }).toEqual({ item: { kind: 'label_assignment', workspaceId, id: documentId, relatedId: labelId }, count: null });
  });
});
