import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SearchablePdfState } from '../../../domain/ocr/ports';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';
import { monthOf } from '../../../domain/usage/usage';
import { failedConditions } from './errors';
import type { WorkspaceTable } from './keys';
import type { TransactItem } from './label-membership';
import type { StorageLedger, StorageLimits } from './storage-ledger';
import { usageMove } from './usage-repository';

/**
 * What a document's OCR run left of its searchable PDF, on the document's item: the PDF's size, or why there is
 * none. The PDF's bytes are the workspace's like its original's: the same transaction moves the usage
 * (`bytes_uploaded`, `bytes_deleted`) and the storage ledger by the difference with the PDF it replaces, so the
 * plan's `bytes_stored` holds the PDFs too. A PDF the plan has no room for is refused (403 `quota_exceeded`),
 * and nothing is recorded.
 */
export class DynamoSearchablePdfRecords {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: WorkspaceTable,
    private readonly ledger: StorageLedger,
    private readonly storageLimits: () => Promise<StorageLimits>,
  ) {}

  async record(documentId: string, readSha256: string, state: SearchablePdfState, now: string): Promise<boolean> {
    const { tableName, keys } = this.table;
    return retryLostRaces(
      async () => {
        const { Item } = await this.db.send(
          new GetCommand({ TableName: tableName, Key: keys.document(documentId), ProjectionExpression: 'sha256, searchable_pdf_size', ConsistentRead: true }),
        );
        if (!Item || Item['sha256'] !== readSha256) return false;
        const before = typeof Item['searchable_pdf_size'] === 'number' ? Item['searchable_pdf_size'] : undefined;
        const after = 'size' in state ? state.size : undefined;
        const set =
          after === undefined
            ? 'SET searchable_pdf_reason = :reason, searchable_pdf_message = :message REMOVE searchable_pdf_size'
            : 'SET searchable_pdf_size = :size REMOVE searchable_pdf_reason, searchable_pdf_message';
        const values = 'size' in state ? { ':size': state.size } : { ':reason': state.reason, ':message': state.message };
        const bytes = { ...(after ? { bytes_uploaded: after } : {}), ...(before ? { bytes_deleted: before } : {}) };
        const documentItem: TransactItem = {
          Update: {
            TableName: tableName,
            Key: keys.document(documentId),
            UpdateExpression: set,
            // On condition that the file and the PDF counted are still those read: the bytes move once.
            ConditionExpression: `sha256 = :sha256 AND ${before === undefined ? 'attribute_not_exists(searchable_pdf_size)' : 'searchable_pdf_size = :before'}`,
            ExpressionAttributeValues: { ...values, ':sha256': readSha256, ...(before === undefined ? {} : { ':before': before }) },
          },
        };
        const usage = Object.keys(bytes).length ? [usageMove(this.table, monthOf(now), bytes)] : [];
        const difference = (after ?? 0) - (before ?? 0);
        try {
          if (difference === 0) {
            await this.db.send(new TransactWriteCommand({ TransactItems: [documentItem, ...usage] }));
            return true;
          }
          // A larger PDF must fit the plan (the ledger refuses it otherwise); a smaller one, or none, frees room.
          await this.ledger.transact({ documents: 0, bytes: difference }, await this.storageLimits(), (ledgerItem) => ({
            items: [documentItem, ledgerItem, ...usage],
            ledgerIndex: 1,
          }));
          return true;
        } catch (error) {
          if (!failedConditions(error)?.length) throw error;
          return LOST_RACE;
        }
      },
      () => false,
    );
  }
}
