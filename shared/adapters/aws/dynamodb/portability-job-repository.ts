import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ExportJob, ExportState, ImportJob, ImportState } from '../../../domain/portability/jobs';
import type { ImportedTexts, PortabilityJobRepository, PortabilityMessage, UnfinishedPortabilityJobs } from '../../../domain/portability/ports';
import { isConditionFailure } from './errors';
import { dataKeys, withoutKeys } from './keys';
import { indexPartition } from './queries';

type Item = Record<string, unknown>;

/**
 * Keys of a workspace's exports and imports: one partition (`WS#<ws>#PORTABILITY`), `EXPORT#<id>` and
 * `IMPORT#<id>`. An unfinished job (queued or running) is also in the deployment-wide gsi1 partition
 * {@link UNFINISHED_INDEX}, which holds ids only, so that a restarted local runtime can queue it again.
 */
export const portabilityKeys = {
  partition: (workspaceId: string) => `WS#${workspaceId}#PORTABILITY`,
  export: (workspaceId: string, id: string) => ({ pk: portabilityKeys.partition(workspaceId), sk: `EXPORT#${id}` }),
  import: (workspaceId: string, id: string) => ({ pk: portabilityKeys.partition(workspaceId), sk: `IMPORT#${id}` }),
  /** The import running in the workspace, if any (`import_id`). */
  importSlot: (workspaceId: string) => ({ pk: portabilityKeys.partition(workspaceId), sk: 'IMPORTSLOT' }),
};
export const UNFINISHED_INDEX = 'PORTABILITYUNFINISHED';

const FINISHED = new Set<string>(['completed', 'failed']);
const UNSTARTED = new Set<string>(['awaiting_archive']);

/** One workspace's exports and imports in the application table. */
export class DynamoPortabilityJobRepository implements PortabilityJobRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly workspaceId: string,
  ) {}

  async createExport(job: ExportJob): Promise<void> {
    await this.put(portabilityKeys.export(this.workspaceId, job.id), job, 'export');
  }

  async getExport(id: string): Promise<ExportJob | null> {
    return this.get<ExportJob>(portabilityKeys.export(this.workspaceId, id));
  }

  updateExport(id: string, changes: Partial<Omit<ExportJob, 'id'>>, from?: readonly ExportState[]): Promise<boolean> {
    return this.update(portabilityKeys.export(this.workspaceId, id), id, 'export', changes, from);
  }

  async createImport(job: ImportJob): Promise<void> {
    await this.put(portabilityKeys.import(this.workspaceId, job.id), job, 'import');
  }

  async getImport(id: string): Promise<ImportJob | null> {
    return this.get<ImportJob>(portabilityKeys.import(this.workspaceId, id));
  }

  updateImport(id: string, changes: Partial<Omit<ImportJob, 'id'>>, from?: readonly ImportState[]): Promise<boolean> {
    return this.update(portabilityKeys.import(this.workspaceId, id), id, 'import', changes, from);
  }

  async holdImportSlot(importId: string): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...portabilityKeys.importSlot(this.workspaceId), import_id: importId },
          ConditionExpression: 'attribute_not_exists(pk) OR import_id = :me',
          ExpressionAttributeValues: { ':me': importId },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async releaseImportSlot(importId: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({ TableName: this.tableName, Key: portabilityKeys.importSlot(this.workspaceId), ConditionExpression: 'import_id = :me', ExpressionAttributeValues: { ':me': importId } }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  private unfinishedSort(kind: PortabilityMessage['kind'], id: string): string {
    return `${this.workspaceId}#${kind}#${id}`;
  }

  private async put(key: Item, job: (ExportJob | ImportJob) & { state: string }, kind: PortabilityMessage['kind']): Promise<void> {
    const unfinished = !FINISHED.has(job.state) && !UNSTARTED.has(job.state);
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...key, ...job, ...(unfinished ? { gsi1pk: UNFINISHED_INDEX, gsi1sk: this.unfinishedSort(kind, job.id) } : {}) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  private async get<T>(key: Item): Promise<T | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return Item ? withoutKeys<T>(Item) : null;
  }

  private async update(key: Item, id: string, kind: PortabilityMessage['kind'], changes: Item, from?: readonly string[]): Promise<boolean> {
    const set = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (!set.length) return true;
    const names: Record<string, string> = Object.fromEntries(set.map(([field], i) => [`#f${i}`, field]));
    const values: Item = Object.fromEntries(set.map(([, value], i) => [`:v${i}`, value]));
    const assignments = set.map((_, i) => `#f${i} = :v${i}`);
    const removals: string[] = [];
    const state = changes['state'];
    if (typeof state === 'string' && FINISHED.has(state)) removals.push('gsi1pk', 'gsi1sk');
    else if (typeof state === 'string' && !UNSTARTED.has(state)) {
      assignments.push('gsi1pk = :unfinished', 'gsi1sk = :sort');
      values[':unfinished'] = UNFINISHED_INDEX;
      values[':sort'] = this.unfinishedSort(kind, id);
    }
    const conditions = ['attribute_exists(pk)'];
    if (from?.length) {
      names['#state'] = 'state';
      conditions.push(`#state IN (${from.map((_, i) => `:from${i}`).join(', ')})`);
      from.forEach((value, i) => (values[`:from${i}`] = value));
    }
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: `SET ${assignments.join(', ')}${removals.length ? ` REMOVE ${removals.join(', ')}` : ''}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}

/** The unfinished exports and imports of every workspace (ids only), for the local runtime's start. */
export class DynamoUnfinishedPortabilityJobs implements UnfinishedPortabilityJobs {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async list(): Promise<PortabilityMessage[]> {
    const items = await indexPartition(this.db, this.tableName, UNFINISHED_INDEX);
    return items.flatMap((item) => {
      const [workspaceId, kind, id] = String(item['gsi1sk']).split('#');
      return workspaceId && (kind === 'export' || kind === 'import') && id ? [{ kind, workspace_id: workspaceId, job_id: id } as PortabilityMessage] : [];
    });
  }
}

/** A document's text as an import writes it: the content item beside the document's record. */
export class DynamoImportedTexts implements ImportedTexts {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly workspaceId: string,
  ) {}

  async put(documentId: string, content: { text: string } | { text_object: string }): Promise<void> {
    await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...dataKeys(this.workspaceId).documentContent(documentId), ...content } }));
  }
}
