import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { DocumentRecord } from '../../../domain/documents/document';
import { isPlainListing, type DocumentChanges, type DocumentQuery, type DocumentRepository, type ReplacedFile } from '../../../domain/documents/ports';
import type { DocumentContent } from '../../../domain/files/ports';
import type { OcrJob } from '../../../domain/ocr/jobs';
import { unknownLabelsError } from '../../../domain/labels/label';
import type { AppError } from '../../../domain/errors';
import { pageOf, type Page } from '../../../domain/pagination';
import { failedConditions } from './errors';
import { dataKeys, type DataKeys, type WorkspaceTable } from './keys';
import { countedLabel, currentLabelMembers, joinLabel, labelLayouts, layoutsChanged, leaveLabel, leavePlaces, type TransactItem } from './label-membership';
import { createJobItems, deleteJobItems, toStoredJob, type StoredOcrJob } from './ocr-job-items';
import { batchGetAll, indexPartition, queryAll } from './queries';
import { LOST_RACE, MAX_OPTIMISTIC_ATTEMPTS, retryLostRaces } from '../../../domain/optimistic-retry';
import { systemClock, type Clock } from '../../../domain/clock';
import { monthOf } from '../../../domain/usage/usage';
import { usageMove } from './usage-repository';
import { NO_STORAGE_LIMITS, workspaceStorageLedger, type StorageLedger, type StorageLimits } from './storage-ledger';
import { randomShard } from './hot-counters';
import { toDocumentContent, toDocumentRecord } from './document-items';

type Item = Record<string, unknown>;

/** DynamoDB wants a set with members, or no attribute at all. */
const labelSet = (labels: string[]) => (labels.length ? new Set(labels) : undefined);

/**
 * Documents in the application table: the record (`DOC#id / META`, listed newest first through gsi1), the
 * extracted text apart (`DOC#id / CONTENT`), a document counter, one membership item per label carried, and
 * the document's OCR job (`DOC#id / OCRJOB`, see the OCR job repository) created and deleted with it.
 * Creates and deletes also move the workspace's usage of the month (documents and bytes, see usage-repository.ts).
 * Every write that changes labels moves the labels' document_count in the same transaction, conditioned on the
 * document's version so that concurrent changes retry instead of double counting.
 */
export class DynamoDocumentRepository implements DocumentRepository {
  /** The workspace's keys: every item this repository reads or writes is the workspace's. */
  private readonly keys: DataKeys;
  private readonly table: WorkspaceTable;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
    /** Which month's usage a create or delete counts in. */
    private readonly clock: Clock = systemClock,
    /** The storage limits of the workspace's plan now (read per change: a plan change holds at once). */
    private readonly storageLimits: () => Promise<StorageLimits> = async () => NO_STORAGE_LIMITS,
  ) {
    this.table = { tableName, keys: dataKeys(workspaceId) };
    this.keys = this.table.keys;
    this.ledger = workspaceStorageLedger(db, tableName, workspaceId, this.keys, clock);
  }

  /** What the workspace stores, within its plan (see storage-ledger.ts). */
  private readonly ledger: StorageLedger;

  async create(document: DocumentRecord, ocrJob?: OcrJob): Promise<void> {
    // A label whose migration started after its layout was read refuses the join: written again in its new one.
    for (let attempt = 1; ; attempt++) {
      const stale = await this.createOnce(document, ocrJob);
      if (!stale || attempt === MAX_OPTIMISTIC_ATTEMPTS) {
        if (stale) throw stale;
        return;
      }
    }
  }

  /** One attempt of {@link create}; answers the refusal when a label's layout changed meanwhile (try again). */
  private async createOnce(document: DocumentRecord, ocrJob?: OcrJob): Promise<AppError | null> {
    const { labels, ...rest } = document;
    const layouts = await labelLayouts(this.db, this.table, labels);
    const items = (ledgerItem: TransactItem): TransactItem[] => [
      {
        Put: {
          TableName: this.tableName,
          Item: {
            ...this.keys.document(document.id),
            gsi1pk: this.keys.documentsIndex,
            gsi1sk: `${document.created_at}#${document.id}`,
            ...rest,
            labels: labelSet(labels),
            version: 1,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      // The ledger's shard: the document's count and bytes, within the plan (a refusal is 403 quota_exceeded).
      ledgerItem,
      usageMove(this.table, monthOf(this.clock.now()), { documents_uploaded: 1, bytes_uploaded: document.size }),
      ...labels.flatMap((labelId) => joinLabel(this.table, labelId, document.id, layouts.get(labelId)!)),
      ...(ocrJob ? createJobItems(this.table, ocrJob) : []),
      ...this.fileItems(document, 1),
    ];
    let sent: TransactItem[] = [];
    try {
      await this.ledger.transact({ documents: 1, bytes: document.size }, await this.storageLimits(), (ledgerItem) => {
        sent = items(ledgerItem);
        return { items: sent, ledgerIndex: 1 };
      });
      return null;
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed?.length) throw error;
      // A label deleted between the caller's check and this write (nothing was stored), or migrated meanwhile.
      const unknown = failed.flatMap((index) => countedLabel(sent[index]) ?? []);
      const refusal = unknownLabelsError(unknown.length ? unknown : labels);
      if (unknown.length && (await layoutsChanged(this.db, this.table, layouts, unknown)).length) return refusal;
      throw refusal;
    }
  }

  // Reads are strongly consistent: the search indexer reads the record (then its text) right after a change,
  // and a stale copy indexed last would stay until the document changes again.
  async get(id: string): Promise<DocumentRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.document(id), ConsistentRead: true }));
    return Item ? toDocumentRecord(Item) : null;
  }

  async getContent(id: string): Promise<DocumentContent> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.keys.documentContent(id), ConsistentRead: true }),
    );
    return toDocumentContent(Item);
  }

  async list(query: DocumentQuery): Promise<Page<DocumentRecord>> {
    if (isPlainListing(query)) return this.newestOrOldestPage(query);
    const candidates = query.labelIds?.length ? await this.withAllLabels(query.labelIds) : await this.allDocuments();
    const matching = candidates.filter((document) => matches(document, query)).sort(comparator(query));
    const start = (query.page - 1) * query.perPage;
    return pageOf(matching.slice(start, start + query.perPage), query, matching.length);
  }

  async update(id: string, changes: DocumentChanges, updatedAt: string): Promise<DocumentRecord | null> {
    // Labels found deleted while this change takes them off: their counts are gone, only memberships remain.
    const goneLabels = new Set<string>();
    let conflict: unknown;
    return retryLostRaces<DocumentRecord | null>(
      async () => {
        const item = await this.rawDocument(id);
        if (!item) return null;
        const current = toDocumentRecord(item);
        const next: DocumentRecord = { ...current, ...dropUndefined(changes), updated_at: updatedAt, version: (current.version ?? 1) + 1 };
        const added = next.labels.filter((label) => !current.labels.includes(label));
        const removed = current.labels.filter((label) => !next.labels.includes(label));
        const layouts = await labelLayouts(this.db, this.table, [...added, ...removed]);
        const places = await leavePlaces(this.db, this.table, id, new Map(removed.map((labelId) => [labelId, layouts.get(labelId)!])));
        const names: Record<string, string> = { '#title': 'title', '#metadata': 'metadata', '#updated': 'updated_at', '#labels': 'labels', '#version': 'version' };
        const values: Record<string, unknown> = { ':title': next.title, ':metadata': next.metadata, ':updated': updatedAt, ':version': item['version'], ':one': 1 };
        let expression = 'SET #title = :title, #metadata = :metadata, #updated = :updated, #version = #version + :one';
        if (next.labels.length) {
          expression += ', #labels = :labels';
          values[':labels'] = new Set(next.labels);
        } else expression += ' REMOVE #labels';
        const items: TransactItem[] = [
          {
            Update: {
              TableName: this.tableName,
              Key: this.keys.document(id),
              UpdateExpression: expression,
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
            },
          },
          ...added.flatMap((labelId) => joinLabel(this.table, labelId, id, layouts.get(labelId)!)),
          ...removed.flatMap((labelId) => leaveLabel(this.table, labelId, id, goneLabels.has(labelId), places.get(labelId)!)),
        ];
        try {
          await this.db.send(new TransactWriteCommand({ TransactItems: items }));
          return next;
        } catch (error) {
          const failed = failedConditions(error);
          if (!failed?.length) throw error;
          // The document changed meanwhile (an edit, an assign, a label delete taking a label off): read it again.
          if (!failed.includes(0)) {
            const vanished = failed.flatMap((index) => countedLabel(items[index]) ?? []);
            // A label added here was deleted after the caller's check: the same answer as that check gives; or
            // its migration started meanwhile: joined again in its new layout.
            const unknown = vanished.filter((labelId) => added.includes(labelId));
            const migrated = await layoutsChanged(this.db, this.table, layouts, unknown);
            if (unknown.length > migrated.length) throw unknownLabelsError(unknown.filter((labelId) => !migrated.includes(labelId)));
            for (const labelId of vanished) if (!migrated.includes(labelId)) goneLabels.add(labelId);
          }
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
    );
  }

  async delete(id: string): Promise<boolean> {
    const goneLabels = new Set<string>();
    let conflict: unknown;
    return retryLostRaces(
      async () => {
        const [item, job] = await Promise.all([this.rawDocument(id), this.rawJob(id)]);
        if (!item) return false;
        const document = toDocumentRecord(item);
        const places = await leavePlaces(this.db, this.table, id, await labelLayouts(this.db, this.table, document.labels));
        const items: TransactItem[] = [
          {
            Delete: {
              TableName: this.tableName,
              Key: this.keys.document(id),
              ConditionExpression: 'version = :version',
              ExpressionAttributeValues: { ':version': item['version'] },
            },
          },
          { Delete: { TableName: this.tableName, Key: this.keys.documentContent(id) } },
          // The searchable PDF goes with the document's prefix: its bytes are released with the original's.
          this.ledger.moveItem(randomShard(), { documents: -1, bytes: -(Number(item['size'] ?? 0) + Number(item['searchable_pdf_size'] ?? 0)) }, NO_STORAGE_LIMITS),
          usageMove(this.table, monthOf(this.clock.now()), { documents_deleted: 1, bytes_deleted: Number(item['size'] ?? 0) + Number(item['searchable_pdf_size'] ?? 0) }),
          ...document.labels.flatMap((labelId) => leaveLabel(this.table, labelId, id, goneLabels.has(labelId), places.get(labelId)!)),
          ...(job ? deleteJobItems(this.table, job) : []),
          ...this.fileItems(document, -1),
        ];
        try {
          await this.db.send(new TransactWriteCommand({ TransactItems: items }));
          return true;
        } catch (error) {
          const failed = failedConditions(error);
          // The document changed, or one of its labels is being deleted: read it again and retry, leaving the
          // counts of deleted labels alone.
          if (!failed?.length) throw error;
          for (const index of failed) {
            const labelId = countedLabel(items[index]);
            if (labelId) goneLabels.add(labelId);
          }
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
    );
  }

  async findBySha256(sha256: string): Promise<string | null> {
    const { Items } = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :hash',
        ExpressionAttributeValues: { ':hash': this.keys.documentHashes(sha256) },
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    return Items?.[0] ? String(Items[0]['document_id']) : null;
  }

  async replaceFile(id: string, file: ReplacedFile, updatedAt: string): Promise<DocumentRecord | null> {
    let conflict: unknown;
    return retryLostRaces(
      async () => {
        const item = await this.rawDocument(id);
        if (!item) return null;
        const before = toDocumentRecord(item);
        const after: DocumentRecord = { ...before, ...file, updated_at: updatedAt, version: before.version! + 1 };
        const hashMoves = before.sha256 === file.sha256 ? [] : [...this.fileItems({ ...before, source_id: null }, -1), ...this.fileItems({ ...after, source_id: null }, 1)];
        const limits = await this.storageLimits();
        try {
          // The bytes' difference moves the ledger: a larger file must fit the plan (403 quota_exceeded otherwise).
          // The old file's searchable PDF is no longer counted either (the next OCR run writes and counts a new one).
          await this.ledger.transact({ documents: 0, bytes: file.size - before.size - (before.searchable_pdf_size ?? 0) }, limits, (ledgerItem) => ({
            ledgerIndex: 1,
            items: [
                {
                  Update: {
                    TableName: this.tableName,
                    Key: this.keys.document(id),
                    // The searchable PDF was of the old file: no longer served nor counted (the next OCR run writes one).
                    UpdateExpression: 'SET #size = :size, sha256 = :sha256, mime_type = :mime, updated_at = :now, version = :next REMOVE searchable_pdf_size, searchable_pdf_reason, searchable_pdf_message',
                    ConditionExpression: 'version = :version',
                    ExpressionAttributeNames: { '#size': 'size' },
                    ExpressionAttributeValues: {
                      ':size': file.size,
                      ':sha256': file.sha256,
                      ':mime': file.mime_type,
                      ':now': updatedAt,
                      ':next': after.version,
                      ':version': item['version'],
                    },
                  },
                },
                ledgerItem,
                usageMove(this.table, monthOf(this.clock.now()), { bytes_uploaded: file.size, bytes_deleted: before.size + (before.searchable_pdf_size ?? 0) }),
                ...hashMoves,
              ],
          }));
          return after;
        } catch (error) {
          if (!failedConditions(error)?.length) throw error;
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
    );
  }

  async getMany(ids: string[]): Promise<DocumentRecord[]> {
    const found = new Map(
      (await batchGetAll(this.db, this.tableName, ids.map((id) => this.keys.document(id)))).map((item) => [String(item['id']), toDocumentRecord(item)]),
    );
    return ids.flatMap((id) => (found.has(id) ? [found.get(id)!] : []));
  }

  async *scan(): AsyncIterable<DocumentRecord> {
    let cursor: Item | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: 'gsi1pk = :documents',
          ExpressionAttributeValues: { ':documents': this.keys.documentsIndex },
          ExclusiveStartKey: cursor,
        }),
      );
      for (const item of page.Items ?? []) yield toDocumentRecord(item);
      cursor = page.LastEvaluatedKey;
    } while (cursor);
  }

  private async rawDocument(id: string): Promise<Item | undefined> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: this.keys.document(id), ConsistentRead: true }),
    );
    return Item;
  }

  private async rawJob(id: string): Promise<StoredOcrJob | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.ocrJob(id), ConsistentRead: true }));
    return Item ? toStoredJob(Item) : null;
  }

  /**
   * What a document's file moves besides the record: the item that finds it by SHA-256, and its source's document
   * count (ADD, so a count outlives its source harmlessly: a deleted source's counter is deleted with it).
   */
  private fileItems(document: Pick<DocumentRecord, 'id' | 'sha256' | 'source_id'>, delta: 1 | -1): TransactItem[] {
    const hashKey = this.keys.documentHash(document.sha256, document.id);
    const items: TransactItem[] = [
      delta === 1
        ? { Put: { TableName: this.tableName, Item: { ...hashKey, document_id: document.id } } }
        : { Delete: { TableName: this.tableName, Key: hashKey } },
    ];
    if (document.source_id) {
      items.push({
        Update: {
          TableName: this.tableName,
          Key: this.keys.sourceDocumentCount(document.source_id),
          UpdateExpression: 'ADD #count :delta',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':delta': delta },
        },
      });
    }
    return items;
  }

  /** The default listing: newest (or oldest) first straight from gsi1, reading only as far as the page. */
  private async newestOrOldestPage(query: DocumentQuery): Promise<Page<DocumentRecord>> {
    const wanted = query.page * query.perPage;
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :documents',
        ExpressionAttributeValues: { ':documents': this.keys.documentsIndex },
        ScanIndexForward: query.order === 'asc',
      },
      wanted,
    );
    // The counter written before the ledger, and the ledger's shards.
    const [{ Item: counter }, counted] = await Promise.all([
      this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.documentCounter })),
      this.ledger.documents(),
    ]);
    const total = Number(counter?.['count'] ?? 0) + counted;
    const start = (query.page - 1) * query.perPage;
    return pageOf(items.slice(start, wanted).map(toDocumentRecord), query, total);
  }

  private async allDocuments(): Promise<DocumentRecord[]> {
    return (await indexPartition(this.db, this.tableName, this.keys.documentsIndex)).map(toDocumentRecord);
  }

  /** Documents carrying every one of the labels: the smallest membership first, intersected with the others. */
  private async withAllLabels(labelIds: string[]): Promise<DocumentRecord[]> {
    const unique = [...new Set(labelIds)];
    const layouts = await labelLayouts(this.db, this.table, unique);
    const memberships = await Promise.all(unique.map((labelId) => currentLabelMembers(this.db, this.table, labelId, layouts.get(labelId)!, false)));
    memberships.sort((a, b) => a.length - b.length);
    const [smallest = [], ...others] = memberships;
    const otherSets = others.map((ids) => new Set(ids));
    const ids = smallest.filter((id) => otherSets.every((set) => set.has(id)));
    return (await batchGetAll(this.db, this.tableName, ids.map((id) => this.keys.document(id)))).map(toDocumentRecord);
  }
}

function dropUndefined<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function matches(document: DocumentRecord, query: DocumentQuery): boolean {
  return (
    (!query.status || document.status === query.status) &&
    (!query.sourceId || document.source_id === query.sourceId) &&
    (!query.createdFrom || document.created_at >= query.createdFrom) &&
    (!query.createdTo || document.created_at <= query.createdTo) &&
    (query.labelIds ?? []).every((label) => document.labels.includes(label))
  );
}

function comparator(query: DocumentQuery): (a: DocumentRecord, b: DocumentRecord) => number {
  const direction = query.order === 'asc' ? 1 : -1;
  return (a, b) => {
    const x = a[query.sort];
    const y = b[query.sort];
    const primary =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en', { sensitivity: 'base' });
    return (primary || a.id.localeCompare(b.id)) * direction;
  };
}
