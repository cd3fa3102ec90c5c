import { PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from './errors';
import type { DirectorySummary, RememberedDirectory, RememberedFile, SyncStateStore, SyncWorkItem } from '../../../domain/sources/ports';
import { dataKeys, type DataKeys } from './keys';
import { batchWriteAll, queryAll } from './queries';

type Item = Record<string, unknown>;

/** The sort key of a directory's own item in its partition; file and subdirectory items sort after it. */
const SELF = '.';

/**
 * A source's remembered tree, one partition per remote directory (`.` its ETag, `F#<name>` a file, `D#<name>`
 * a subdirectory), and each running sync's work list in its own partition (`D#<path>`, `F#<path>`), items
 * deleted as they are done. Everything is written item by item, so a step that dies loses at most the item in hand.
 */
export class DynamoSyncStateStore implements SyncStateStore {
  private readonly keys: DataKeys;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    workspaceId: string,
  ) {
    this.keys = dataKeys(workspaceId);
  }

  async directory(sourceId: string, path: string): Promise<RememberedDirectory | null> {
    const items = await this.partition(this.keys.sourceDirectory(sourceId, path));
    const self = items.find((item) => item['sk'] === SELF);
    if (!self) return null;
    const files = new Map<string, RememberedFile>();
    const directories = new Map<string, string | null>();
    const summaries = new Map<string, DirectorySummary>();
    for (const item of items) {
      const sk = String(item['sk']);
      if (sk.startsWith('F#')) {
        files.set(sk.slice(2), {
          etag: (item['etag'] as string | null) ?? null,
          size: (item['size'] as number | null) ?? null,
          last_modified: (item['last_modified'] as string | null) ?? null,
          document_id: (item['document_id'] as string | null) ?? null,
        });
      } else if (sk.startsWith('D#')) {
        directories.set(sk.slice(2), (item['etag'] as string | null) ?? null);
        if (typeof item['files'] === 'number' && typeof item['directories'] === 'number') {
          summaries.set(sk.slice(2), { files: item['files'], directories: item['directories'] });
        }
      }
    }
    return { etag: (self['etag'] as string | null) ?? null, files, directories, summaries };
  }

  async saveDirectory(sourceId: string, path: string, etag: string | null, directories: Map<string, string | null>): Promise<void> {
    const pk = this.keys.sourceDirectory(sourceId, path);
    const items = await this.partition(pk);
    const self = items.find((item) => item['sk'] === SELF);
    const known = new Map(items.filter((item) => String(item['sk']).startsWith('D#')).map((item) => [String(item['sk']).slice(2), item]));
    const gone = [...known.keys()].filter((name) => !directories.has(name));
    // A subdirectory that vanished takes its remembered tree with it (its documents stay).
    for (const name of gone) await this.forgetTree(sourceId, join(path, name));
    // Only what changed is written: a directory of unchanged subdirectories costs its one read.
    const moved = [...directories].filter(([name, childEtag]) => {
      const before = known.get(name);
      return !before || childEtag === null || before['etag'] !== childEtag;
    });
    await batchWriteAll(this.db, this.tableName, [
      ...gone.map((name) => ({ delete: { pk, sk: `D#${name}` } })),
      // A subdirectory whose ETag moved (or is new) is unknown until walked: no summary.
      ...moved.map(([name, childEtag]) => ({ put: { pk, sk: `D#${name}`, etag: childEtag } })),
      // Written last: a directory counts as remembered only once its subdirectories are.
      ...(self && etag !== null && self['etag'] === etag ? [] : [{ put: { pk, sk: SELF, etag } }]),
    ]);
  }

  async saveFile(sourceId: string, path: string, file: RememberedFile): Promise<void> {
    const { parent, name } = split(path);
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { pk: this.keys.sourceDirectory(sourceId, parent), sk: `F#${name}`, ...file } }));
  }

  async summarize(sourceId: string, path: string, etag: string | null, summary: DirectorySummary): Promise<void> {
    if (path === '') return;
    const { parent, name } = split(path);
    await this.db.send(
      new PutCommand({ TableName: this.tableName, Item: { pk: this.keys.sourceDirectory(sourceId, parent), sk: `D#${name}`, etag, ...summary } }),
    );
  }

  async distrustDirectory(sourceId: string, path: string): Promise<void> {
    if (path !== '') {
      const { parent, name } = split(path);
      await this.forgetEtag({ pk: this.keys.sourceDirectory(sourceId, parent), sk: `D#${name}` });
    }
    await this.forgetEtag({ pk: this.keys.sourceDirectory(sourceId, path), sk: SELF });
  }

  private async forgetEtag(key: { pk: string; sk: string }): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'SET etag = :none',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':none': null },
      }),
    ).catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
  }

  async forgetFiles(sourceId: string, paths: string[]): Promise<void> {
    await batchWriteAll(
      this.db,
      this.tableName,
      paths.map((path) => {
        const { parent, name } = split(path);
        return { delete: { pk: this.keys.sourceDirectory(sourceId, parent), sk: `F#${name}` } };
      }),
    );
  }

  async addWork(jobId: string, items: SyncWorkItem[]): Promise<void> {
    const pk = this.keys.syncWork(jobId);
    const unique = new Map(items.map((item) => [workKey(item), item]));
    await batchWriteAll(this.db, this.tableName, [...unique].map(([sk, item]) => ({ put: { pk, sk, ...item } })));
  }

  async work(jobId: string, kind: SyncWorkItem['kind'], limit: number): Promise<SyncWorkItem[]> {
    const items = await queryAll(
      this.db,
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :work AND begins_with(sk, :kind)',
        ExpressionAttributeValues: { ':work': this.keys.syncWork(jobId), ':kind': kind === 'file' ? 'F#' : 'D#' },
        ConsistentRead: true,
      },
      limit,
    );
    return items.map(({ pk: _pk, sk: _sk, ...item }) => item as unknown as SyncWorkItem);
  }

  async workDone(jobId: string, item: SyncWorkItem): Promise<void> {
    await batchWriteAll(this.db, this.tableName, [{ delete: { pk: this.keys.syncWork(jobId), sk: workKey(item) } }]);
  }

  async forget(sourceId: string, jobIds: string[]): Promise<void> {
    await this.forgetTree(sourceId, '');
    for (const jobId of jobIds) {
      const pk = this.keys.syncWork(jobId);
      const items = await this.partition(pk);
      await batchWriteAll(this.db, this.tableName, items.map((item) => ({ delete: { pk, sk: String(item['sk']) } })));
    }
  }

  /** Deletes a remembered directory and everything remembered below it. */
  private async forgetTree(sourceId: string, path: string): Promise<void> {
    const pk = this.keys.sourceDirectory(sourceId, path);
    const items = await this.partition(pk);
    for (const item of items) {
      const sk = String(item['sk']);
      if (sk.startsWith('D#')) await this.forgetTree(sourceId, join(path, sk.slice(2)));
    }
    await batchWriteAll(this.db, this.tableName, items.map((item) => ({ delete: { pk, sk: String(item['sk']) } })));
  }

  private partition(pk: string): Promise<Item[]> {
    return queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ConsistentRead: true,
    });
  }
}

const workKey = (item: SyncWorkItem) => `${item.kind === 'file' ? 'F' : 'D'}#${item.path}`;
const join = (parent: string, name: string) => (parent ? `${parent}/${name}` : name);
const split = (path: string) => {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? { parent: '', name: path } : { parent: path.slice(0, slash), name: path.slice(slash + 1) };
};
