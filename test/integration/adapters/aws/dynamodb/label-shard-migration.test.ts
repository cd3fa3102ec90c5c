import { GetCommand, PutCommand, ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoDocumentRepository } from '../../../../../shared/adapters/aws/dynamodb/document-repository';
import { dataKeys } from '../../../../../shared/adapters/aws/dynamodb/keys';
import { DynamoLabelRepository } from '../../../../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoLabelShardMigration, migrateLabel } from '../../../../../shared/adapters/aws/dynamodb/label-shard-migration';
import type { Label } from '../../../../../shared/domain/labels/label';
import { freshTable } from '../../../../support/aws-resources';
import { aDocumentRecord } from '../../../../support/builders';

type Item = Record<string, unknown>;

const aLabel = (name: string): Label => {
  const now = new Date().toISOString();
  return { id: crypto.randomUUID(), name, color: '#112233', description: null, document_count: 0, created_by: 'u', created_at: now, updated_at: now };
};

/** Every item of the table whose partition key starts with `prefix`, in a stable order. */
async function itemsUnder(db: DynamoDBDocumentClient, tableName: string, prefix: string): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: Item | undefined;
  do {
    const page = await db.send(
      new ScanCommand({ TableName: tableName, FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': prefix }, ConsistentRead: true, ExclusiveStartKey: cursor }),
    );
    items.push(...(page.Items ?? []));
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return items.sort((a, b) => `${a['pk']}/${a['sk']}`.localeCompare(`${b['pk']}/${b['sk']}`));
}

/** The client, failing every transaction after the first `allowed` ones as a process killed midway would. */
function interruptedAfter(db: DynamoDBDocumentClient, allowed: number): DynamoDBDocumentClient {
  let sent = 0;
  return {
    send: (command: unknown) => {
      if (command instanceof TransactWriteCommand && ++sent > allowed) return Promise.reject(new Error('interrupted'));
      return db.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
}

/** The client, running `work` to its end before sending its transaction number `after + 1`. */
function pausedAfter(db: DynamoDBDocumentClient, after: number, work: () => Promise<void>): DynamoDBDocumentClient {
  let sent = 0;
  return {
    send: async (command: unknown) => {
      if (command instanceof TransactWriteCommand && ++sent === after + 1) await work();
      return db.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
}

/**
 * Labels made before labels were sharded (their count on the record, their memberships in its partition) moved
 * to the sharded layout (DynamoDB Local) while documents keep joining and leaving them.
 */
describe('label shard migration', () => {
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

  const keys = () => dataKeys(workspaceId);
  const table = () => ({ tableName, keys: keys() });

  /** A label as the version before sharding stored it: no shards, the count on its record. */
  async function anOldLabel(name: string): Promise<Label> {
    const label = aLabel(name);
    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys().label(label.id), gsi1pk: keys().labelsIndex, gsi1sk: `${name}#${label.id}`, ...label } }));
    await db.send(new PutCommand({ TableName: tableName, Item: { ...keys().labelNameLock(name), label_id: label.id } }));
    return label;
  }

  const upload = async (labelIds: string[]) => {
    const document = aDocumentRecord({ id: crypto.randomUUID(), labels: labelIds });
    await documents.create(document);
    return document.id;
  };
  const uploads = (count: number, labelIds: string[]) => Promise.all(Array.from({ length: count }, () => upload(labelIds)));

  /** The documents carrying the label by their own record, by the label's memberships, and the label's count. */
  async function carriers(labelId: string) {
    const all = await documents.list({ page: 1, perPage: 100, sort: 'created_at', order: 'asc' });
    const byRecord = all.data.filter((document) => document.labels.includes(labelId)).map((document) => document.id).sort();
    const byMembership = (await documents.list({ page: 1, perPage: 100, sort: 'created_at', order: 'asc', labelIds: [labelId] })).data.map((document) => document.id).sort();
    const memberships = (await itemsUnder(db, tableName, keys().label(labelId).pk)).filter((item) => String(item['sk']).startsWith('DOC#'));
    return { byRecord, byMembership, memberships: memberships.length, count: (await labels.get(labelId))?.document_count };
  }

  const inRecordPartition = async (labelId: string) =>
    (await itemsUnder(db, tableName, keys().label(labelId).pk)).filter((item) => item['pk'] === keys().label(labelId).pk && item['sk'] !== 'META');
  const record = async (labelId: string) => (await db.send(new GetCommand({ TableName: tableName, Key: keys().label(labelId), ConsistentRead: true }))).Item;

  it("moves an old label's memberships to its shards with its count and members unchanged", async () => {
    const label = await anOldLabel('archive');
    const members = (await uploads(25, [label.id])).sort();

    const outcome = await migrateLabel(db, table(), label.id);

    expect(outcome).toBe('migrated');
    expect(await carriers(label.id)).toEqual({ byRecord: members, byMembership: members, memberships: 25, count: 25 });
    expect(await inRecordPartition(label.id)).toEqual([]);
    expect(await record(label.id)).toMatchObject({ label_shards: 16 });
    expect(await record(label.id)).not.toHaveProperty('document_count');
    expect((await labels.list()).find((listed) => listed.id === label.id)?.document_count).toBe(25);
  });

  it('counts the documents joining and leaving the label during its migration once each', async () => {
    const label = await anOldLabel('busy');
    const members = await uploads(40, [label.id]);
    const unlabelled = await uploads(30, []);
    const now = () => new Date().toISOString();
    // Midway for certain (the start and a few moves done, the rest not): half of the writers wait for that point;
    // the other half race the whole migration.
    const midway: Promise<unknown>[] = [];
    const pausing = pausedAfter(db, 4, async () => {
      midway.push(labels.assign(label.id, unlabelled.slice(0, 15), now()), uploads(5, [label.id]));
      midway.push(...members.slice(0, 5).map((id) => documents.update(id, { labels: [] }, now())));
      await Promise.all(midway);
    });

    const [outcome, assigned, added] = await Promise.all([
      migrateLabel(pausing, table(), label.id),
      labels.assign(label.id, unlabelled.slice(15), now()),
      uploads(5, [label.id]),
      ...members.slice(5, 10).map((id) => documents.update(id, { labels: [] }, now())),
      ...members.slice(10, 15).map((id) => documents.delete(id)),
    ]);
    const [assignedMidway, addedMidway] = (await Promise.all(midway)) as [typeof assigned, string[]];

    const expected = [...members.slice(15), ...unlabelled, ...(added as string[]), ...addedMidway].sort();
    expect({ outcome, assigned: assigned?.assigned.length, assignedMidway: assignedMidway?.assigned.length }).toEqual({ outcome: 'migrated', assigned: 15, assignedMidway: 15 });
    expect(await carriers(label.id)).toEqual({ byRecord: expected, byMembership: expected, memberships: 65, count: 65 });
    expect(await inRecordPartition(label.id)).toEqual([]);
  });

  it('answers the exact count while the memberships move', async () => {
    const label = await anOldLabel('watched');
    await uploads(30, [label.id]);
    const seen = new Set<number | undefined>();
    let moving = true;

    const migrated = migrateLabel(db, table(), label.id).finally(() => (moving = false));
    while (moving) {
      const [got, listed] = await Promise.all([labels.get(label.id), labels.list()]);
      seen.add(got?.document_count).add(listed.find((one) => one.id === label.id)?.document_count);
    }
    await migrated;

    expect([...seen]).toEqual([30]);
  });

  it('stops when the label is deleted during its migration, leaving no count, membership or carrier', async () => {
    const label = await anOldLabel('doomed');
    await uploads(20, [label.id]);
    const pausing = pausedAfter(db, 4, async () => {
      await labels.delete(label.id);
    });

    const outcome = await migrateLabel(pausing, table(), label.id);

    expect(outcome).toBe('gone');
    expect(await itemsUnder(db, tableName, keys().label(label.id).pk)).toEqual([]);
    expect((await carriers(label.id)).byRecord).toEqual([]);
  });

  it('renames a label during its migration without losing its count', async () => {
    const label = await anOldLabel('before');
    const members = (await uploads(20, [label.id])).sort();
    let renamed: Label | null = null;
    const pausing = pausedAfter(db, 4, async () => {
      renamed = await labels.update(label.id, { name: 'after' }, new Date().toISOString());
    });

    await migrateLabel(pausing, table(), label.id);

    expect(renamed).toMatchObject({ name: 'after', document_count: 20 });
    expect(await labels.get(label.id)).toMatchObject({ name: 'after', document_count: 20 });
    expect(await carriers(label.id)).toEqual({ byRecord: members, byMembership: members, memberships: 20, count: 20 });
  });

  it("migrates every workspace's old labels at start, then changes nothing when run again", async () => {
    const label = await anOldLabel('twice');
    await uploads(6, [label.id]);
    const elsewhere = aLabel('elsewhere');
    const otherKeys = dataKeys(crypto.randomUUID());
    await db.send(new PutCommand({ TableName: tableName, Item: { ...otherKeys.label(elsewhere.id), gsi1pk: otherKeys.labelsIndex, gsi1sk: `elsewhere#${elsewhere.id}`, ...elsewhere } }));
    const migration = new DynamoLabelShardMigration(db, tableName);
    const first = await migration.adopt();
    const after = await itemsUnder(db, tableName, keys().label(label.id).pk);

    const again = await migrateLabel(db, table(), label.id);
    const adoptedAgain = await migration.adopt();

    expect({ first, again, adoptedAgain }).toEqual({ first: 2, again: 'already_sharded', adoptedAgain: 0 });
    expect(await itemsUnder(db, tableName, keys().label(label.id).pk)).toEqual(after);
  });

  it('finishes an interrupted migration on the next run, counting exactly in between', async () => {
    const label = await anOldLabel('interrupted');
    const members = (await uploads(20, [label.id])).sort();

    // The start and a few moves get through; the process dies during the rest.
    await expect(migrateLabel(interruptedAfter(db, 6), table(), label.id)).rejects.toThrow('interrupted');
    const midway = await carriers(label.id);
    const late = await upload([label.id]);
    const resumed = await new DynamoLabelShardMigration(db, tableName).adopt();

    const all = [...members, late].sort();
    expect(midway).toEqual({ byRecord: members, byMembership: members, memberships: 20, count: 20 });
    expect(resumed).toBe(1);
    expect(await carriers(label.id)).toEqual({ byRecord: all, byMembership: all, memberships: 21, count: 21 });
    expect(await inRecordPartition(label.id)).toEqual([]);
  });

  it('has a writer that remembered the old layout join the label in its shards after the migration', async () => {
    const label = await anOldLabel('remembered');
    // This process reads (and remembers) the old layout with its first upload.
    const first = await upload([label.id]);
    const edited = await upload([]);
    await migrateLabel(db, table(), label.id);

    const second = await upload([label.id]);
    await documents.update(edited, { labels: [label.id] }, new Date().toISOString());

    const all = [first, second, edited].sort();
    expect(await carriers(label.id)).toEqual({ byRecord: all, byMembership: all, memberships: 3, count: 3 });
    expect(await inRecordPartition(label.id)).toEqual([]);
    // A join in the old layout would have brought the record's count back.
    expect(await record(label.id)).not.toHaveProperty('document_count');
  });
});
