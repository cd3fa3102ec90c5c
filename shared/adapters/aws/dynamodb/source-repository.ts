import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { LeasedJob, SourceChanges, SourceRepository, SyncOutcome, SyncProgress } from '../../../domain/sources/ports';
import type { SourceRecord } from '../../../domain/sources/source';
import { MAX_SYNC_ERRORS, type SyncJob } from '../../../domain/sources/sync-job';
import { failedConditions, isConditionFailure, isTransactionConflict } from './errors';
import { dataKeys, keys, withoutKeys, type DataKeys } from './keys';
import { queryAll } from './queries';
import { toSyncJob } from './sync-job-items';
import type { TransactItem } from './label-membership';
import { LOST_RACE, retryLostRaces } from '../../../domain/optimistic-retry';

type Item = Record<string, unknown>;

/**
 * Sources in the workspace's `SOURCES` partition (`SOURCE#id`, and `DOCCOUNT#id` moved by the document
 * repository), their syncs under `SOURCE#id#JOBS`. An enabled source sits in the deployment-wide schedule index
 * (gsi1 `SOURCESCHEDULE`, by next sync) and an unfinished sync in `ACTIVESYNCS` (by lease end), which is all the
 * schedule reads across workspaces.
 */
export class DynamoSourceRepository implements SourceRepository {
  private readonly keys: DataKeys;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly workspaceId: string,
  ) {
    this.keys = dataKeys(workspaceId);
  }

  async create(source: SourceRecord): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...this.keys.source(source.id), ...this.scheduleOf(source), ...source },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async get(id: string): Promise<SourceRecord | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.source(id), ConsistentRead: true }));
    return Item ? toSource(Item) : null;
  }

  async list(): Promise<SourceRecord[]> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :sources AND begins_with(sk, :source)',
      ExpressionAttributeValues: { ':sources': this.keys.sourcesPartition, ':source': 'SOURCE#' },
      ConsistentRead: true,
    });
    return items.map(toSource).sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async update(id: string, changes: SourceChanges): Promise<SourceRecord | null> {
    let conflict: unknown;
    return retryLostRaces(
      async () => {
        const current = await this.get(id);
        if (!current) return null;
        const next = { ...current, ...changes };
        try {
          await this.db.send(
            new PutCommand({
              TableName: this.tableName,
              // A sync starting or finishing meanwhile changes the item: read it again rather than undo that.
              Item: { ...this.keys.source(id), ...this.scheduleOf(next), ...next },
              ConditionExpression: 'attribute_exists(pk) AND updated_at = :seen AND current_job_id = :job AND last_sync = :synced',
              ExpressionAttributeValues: { ':seen': current.updated_at, ':job': current.current_job_id, ':synced': current.last_sync },
            }),
          );
          return next;
        } catch (error) {
          if (!isConditionFailure(error)) throw error;
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
    const source = await this.get(id);
    if (!source) return false;
    const jobs = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :jobs',
      ExpressionAttributeValues: { ':jobs': this.keys.syncJobs(id) },
    });
    await Promise.all(jobs.map((job) => this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { pk: job['pk'], sk: job['sk'] } }))));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.keys.sourceDocumentCount(id) }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: this.keys.source(id) }));
    return true;
  }

  async documentCounts(ids: string[]): Promise<Map<string, number>> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :sources AND begins_with(sk, :count)',
      ExpressionAttributeValues: { ':sources': this.keys.sourcesPartition, ':count': 'DOCCOUNT#' },
      ConsistentRead: true,
    });
    const counts = new Map(items.map((item) => [String(item['sk']).slice('DOCCOUNT#'.length), Number(item['count'] ?? 0)]));
    return new Map(ids.map((id) => [id, Math.max(0, counts.get(id) ?? 0)]));
  }

  async startJob(job: SyncJob): Promise<'started' | 'busy' | 'not_found'> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: this.tableName,
                Key: this.keys.source(job.source_id),
                UpdateExpression: 'SET current_job_id = :job, last_job_id = :job',
                ConditionExpression: 'attribute_exists(pk) AND current_job_id = :none',
                ExpressionAttributeValues: { ':job': job.job_id, ':none': null },
              },
            },
            {
              Put: {
                TableName: this.tableName,
                // started_at and finished_at are left out until set, so that the lease can set started_at once.
                Item: { ...this.keys.syncJob(job.source_id, job.job_id), ...this.activeIndexOf(job.source_id, job.job_id, job.queued_at), ...withoutUnset(job), lease_until: null },
              },
            },
          ],
        }),
      );
      return 'started';
    } catch (error) {
      // Another start held the source at that moment (DynamoDB cancels rather than queues): one of them wins.
      if (!failedConditions(error)?.includes(0) && !isTransactionConflict(error)) throw error;
      return (await this.get(job.source_id)) ? 'busy' : 'not_found';
    }
  }

  async getJob(sourceId: string, jobId: string): Promise<SyncJob | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: this.keys.syncJob(sourceId, jobId), ConsistentRead: true }));
    return Item ? toSyncJob(Item) : null;
  }

  async leaseJob(sourceId: string, jobId: string, until: string, now: string): Promise<LeasedJob | null> {
    try {
      const { Attributes } = await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: this.keys.syncJob(sourceId, jobId),
          UpdateExpression:
            'SET lease_until = :until, #state = :running, started_at = if_not_exists(started_at, :now), gsi1sk = :sort, attempts = if_not_exists(attempts, :zero) + :one',
          ConditionExpression: 'attribute_exists(pk) AND #state IN (:queued, :running) AND (lease_until = :none OR lease_until < :now)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':until': until,
            ':now': now,
            ':none': null,
            ':queued': 'queued',
            ':running': 'running',
            ':sort': this.activeIndexOf(sourceId, jobId, until).gsi1sk,
            ':zero': 0,
            ':one': 1,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { ...toSyncJob(Attributes!), attempts: Number(Attributes!['attempts']) };
    } catch (error) {
      if (isConditionFailure(error)) return null;
      throw error;
    }
  }

  async recordProgress(sourceId: string, jobId: string, progress: SyncProgress): Promise<void> {
    const sets: string[] = [];
    const adds: string[] = [];
    const values: Item = {};
    for (const [name, delta] of Object.entries(progress.counts ?? {})) {
      if (!delta) continue;
      adds.push(`#${name} :${name}`);
      values[`:${name}`] = delta;
    }
    const processed = Object.values(progress.counts ?? {}).reduce((sum, n) => sum + (n ?? 0), 0);
    if (processed) {
      adds.push('#processed :processed');
      values[':processed'] = processed;
    }
    if (progress.total) {
      adds.push('#total :total');
      values[':total'] = progress.total;
    }
    if (progress.currentFile !== undefined) {
      sets.push('current_file = :current');
      values[':current'] = progress.currentFile;
    }
    if (progress.errors?.length) {
      const job = await this.getJob(sourceId, jobId);
      const room = MAX_SYNC_ERRORS - (job?.errors.length ?? 0);
      if (room > 0) {
        sets.push('errors = list_append(errors, :errors)');
        values[':errors'] = progress.errors.slice(0, room);
      }
    }
    if (!sets.length && !adds.length) return;
    sets.push('attempts = :zero');
    values[':zero'] = 0;
    // Only the counts that move: DynamoDB refuses a name the expression does not use.
    const moved = Object.entries(progress.counts ?? {}).filter(([, delta]) => delta);
    const names: Record<string, string> = Object.fromEntries(moved.map(([name]) => [`#${name}`, name]));
    if (processed) names['#processed'] = 'processed'; // a reserved word
    if (progress.total) names['#total'] = 'total';
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keys.syncJob(sourceId, jobId),
        UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', adds.length ? `ADD ${adds.join(', ')}` : ''].join(' ').trim(),
        ConditionExpression: 'attribute_exists(pk)',
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }),
    );
  }

  async releaseJob(sourceId: string, jobId: string, options: { progressed?: boolean } = {}): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: this.keys.syncJob(sourceId, jobId),
        UpdateExpression: options.progressed ? 'SET lease_until = :none, attempts = :zero' : 'SET lease_until = :none',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: options.progressed ? { ':none': null, ':zero': 0 } : { ':none': null },
      }),
    ).catch((error: unknown) => {
      if (!isConditionFailure(error)) throw error;
    });
  }

  async finishJob(sourceId: string, jobId: string, outcome: SyncOutcome): Promise<void> {
    const source = await this.get(sourceId);
    const items: TransactItem[] = [
      {
        Update: {
          TableName: this.tableName,
          Key: this.keys.syncJob(sourceId, jobId),
          UpdateExpression: 'SET #state = :state, finished_at = :at, failure = :failure, lease_until = :none, current_file = :none REMOVE gsi1pk, gsi1sk',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':state': outcome.state, ':at': outcome.finishedAt, ':failure': outcome.failure, ':none': null },
        },
      },
    ];
    if (source && source.current_job_id === jobId) {
      const next: SourceRecord = { ...source, ...outcome.source, current_job_id: null };
      items.push({
        Put: {
          TableName: this.tableName,
          Item: { ...this.keys.source(sourceId), ...this.scheduleOf(next), ...next },
          // updated_at too: an edit since the read above would be overwritten by this Put.
          ConditionExpression: 'current_job_id = :job AND updated_at = :seen',
          ExpressionAttributeValues: { ':job': jobId, ':seen': source.updated_at },
        },
      });
    }
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      // The source was changed meanwhile (an edit): finish again on what it is now; a deleted job needs nothing.
      if (failedConditions(error)?.includes(1)) return this.finishJob(sourceId, jobId, outcome);
      if (!failedConditions(error)?.length) throw error;
    }
  }

  /** The schedule index of an enabled source: due at its next sync. */
  private scheduleOf(source: SourceRecord): Item {
    if (!source.enabled || !source.next_sync) return {};
    return { gsi1pk: keys.sourceScheduleIndex, gsi1sk: `${source.next_sync}#${this.workspaceId}#${source.id}` };
  }

  /** The active-syncs index of an unfinished job: stalled once `at` (its lease end, or when it was queued) is past. */
  private activeIndexOf(sourceId: string, jobId: string, at: string): { gsi1pk: string; gsi1sk: string } {
    return { gsi1pk: keys.activeSyncsIndex, gsi1sk: `${at}#${this.workspaceId}#${sourceId}#${jobId}` };
  }
}

const toSource = (item: Item): SourceRecord => {
  const source = withoutKeys<SourceRecord>(item);
  return { ...source, last_full_walk: source.last_full_walk ?? null };
};


const withoutUnset = (job: SyncJob): Partial<SyncJob> => {
  const { started_at, finished_at, ...rest } = job;
  return { ...rest, ...(started_at ? { started_at } : {}), ...(finished_at ? { finished_at } : {}) };
};
