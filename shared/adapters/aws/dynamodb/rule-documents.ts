import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { FileStore } from '../../../domain/files/ports';
import type { RuleDocuments } from '../../../domain/rules/ports';
import type { RuleDocument } from '../../../domain/rules/rule';
import { toDocumentContent } from './document-items';
import { dataKeys, type DataKeys } from './keys';
import { StorageLedger } from './storage-ledger';

/**
 * The workspace's documents for a run of a rule: oldest first from gsi1 (`<created_at>#<id>`), the cursor being
 * the last sort key read, so a step reads one page of the index and no more. Documents created during a run sort
 * after the cursor and are read too (their own upload applied the rules already; assigning again is harmless).
 */
export class DynamoRuleDocuments implements RuleDocuments {
  private readonly keys: DataKeys;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
    /** The workspace's files: text too large for the table is in an object. */
    private readonly files: Pick<FileStore, 'get'>,
  ) {
    this.keys = dataKeys(workspaceId);
  }

  async page(after: string | null, limit: number): Promise<{ documents: RuleDocument[]; next: string | null }> {
    const { Items = [] } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: after === null ? 'gsi1pk = :documents' : 'gsi1pk = :documents AND gsi1sk > :after',
        ExpressionAttributeValues: { ':documents': this.keys.documentsIndex, ...(after === null ? {} : { ':after': after }) },
        Limit: limit,
      }),
    );
    const documents = Items.map((item) => ({
      id: String(item['id']),
      title: String(item['title'] ?? ''),
      filename: String(item['filename'] ?? ''),
      mime_type: String(item['mime_type'] ?? ''),
      source_id: (item['source_id'] as string | null | undefined) ?? null,
    }));
    // A full page may be followed by more; the next step finds out (an empty page ends the run).
    return { documents, next: Items.length === limit ? String(Items[Items.length - 1]!['gsi1sk']) : null };
  }

  count(): Promise<number> {
    return countDocuments(this.db, this.tableName, this.keys);
  }

  async text(id: string): Promise<string> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.documentContent(id) }));
    const content = toDocumentContent(Item);
    if ('text' in content) return content.text;
    return new TextDecoder().decode((await this.files.get(content.text_object)) ?? new Uint8Array());
  }
}

/** How many documents a workspace has, for what counts them without reading them (the start of a rule's run). */
export const dynamoDocumentCount = (db: DynamoDBDocumentClient, tableName: string, workspaceId: string): Pick<RuleDocuments, 'count'> => ({
  count: () => countDocuments(db, tableName, dataKeys(workspaceId)),
});

async function countDocuments(db: DynamoDBDocumentClient, tableName: string, keys: DataKeys): Promise<number> {
  // The counter written before the storage ledger, and the ledger's shards (it starts no pool: no base needed).
  const ledger = new StorageLedger(db, tableName, keys, async () => ({ documents: 0, bytes: 0 }));
  const [{ Item }, counted] = await Promise.all([db.send(new GetCommand({ TableName: tableName, Key: keys.documentCounter })), ledger.documents()]);
  return Number(Item?.['count'] ?? 0) + counted;
}
