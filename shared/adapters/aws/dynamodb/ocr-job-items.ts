import type { OcrJob, OcrJobStatus, OcrQueueCounters } from '../../../domain/ocr/jobs';
import { withoutKeys, type DataKeys, type WorkspaceTable } from './keys';
import type { TransactItem } from './label-membership';

type Item = Record<string, unknown>;

/** A job as stored: the entity plus `rev`, the optimistic-concurrency revision every transition checks. */
export type StoredOcrJob = OcrJob & { rev: number };

/** Which queue counter a job in each status is counted in. */
const COUNTED_AS: Record<OcrJobStatus, keyof OcrQueueCounters | null> = {
  queued: 'pending',
  processing: 'processing',
  completed: null,
  failed: 'failed',
  cancelled: 'failed',
};

const PRIORITY_RANK = { high: '0', normal: '1' } as const;

/** The job's item; `deferred_until` is kept only while the job is queued (it is gone once a worker takes it). */
export const jobItem = (keys: DataKeys, { deferred_until: deferredUntil, ...job }: OcrJob, rev: number): Item => ({
  ...keys.ocrJob(job.document_id),
  gsi1pk: keys.ocrJobsIndex(job.status),
  gsi1sk: `${PRIORITY_RANK[job.priority]}#${job.queued_at}#${job.document_id}`,
  ...job,
  ...(job.status === 'queued' && deferredUntil ? { deferred_until: deferredUntil } : {}),
  rev,
});

export const toStoredJob = (item: Item): StoredOcrJob => ({ ...withoutKeys<OcrJob>(item), rev: Number(item['rev']) });

/** A job as the domain sees it: no keys, no revision. */
export const withoutRev = ({ rev: _rev, ...job }: StoredOcrJob): OcrJob => job;

/** A job item as the domain sees it (see {@link withoutRev}). */
export const toOcrJob = (item: Item): OcrJob => withoutRev(toStoredJob(item));

/** gsi1 sort-key prefix of one priority within a status partition. */
export const priorityPrefix = (priority: OcrJob['priority']): string => `${PRIORITY_RANK[priority]}#`;

/** The counter update for a job moving between statuses (null for none: a new job, a deleted one), or nothing. */
export function countersMove({ tableName, keys }: WorkspaceTable, from: OcrJobStatus | null, to: OcrJobStatus | null): TransactItem[] {
  const deltas = new Map<string, number>();
  const fromCounter = from && COUNTED_AS[from];
  const toCounter = to && COUNTED_AS[to];
  if (fromCounter) deltas.set(fromCounter, (deltas.get(fromCounter) ?? 0) - 1);
  if (toCounter) deltas.set(toCounter, (deltas.get(toCounter) ?? 0) + 1);
  const changes = [...deltas].filter(([, delta]) => delta !== 0);
  if (!changes.length) return [];
  return [
    {
      Update: {
        TableName: tableName,
        Key: keys.ocrQueueCounters,
        UpdateExpression: `ADD ${changes.map((_, i) => `#c${i} :d${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(changes.map(([name], i) => [`#c${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(changes.map(([, delta], i) => [`:d${i}`, delta])),
      },
    },
  ];
}

/** The writes that add a new document's first job: the job and its place in the pending counter. */
export const createJobItems = ({ tableName, keys }: WorkspaceTable, job: OcrJob): TransactItem[] => [
  { Put: { TableName: tableName, Item: jobItem(keys, job, 1), ConditionExpression: 'attribute_not_exists(pk)' } },
  ...countersMove({ tableName, keys }, null, job.status),
];

/** The writes that remove a deleted document's job, on condition it did not move since it was read. */
export const deleteJobItems = ({ tableName, keys }: WorkspaceTable, job: StoredOcrJob): TransactItem[] => [
  {
    Delete: {
      TableName: tableName,
      Key: keys.ocrJob(job.document_id),
      ConditionExpression: 'rev = :rev',
      ExpressionAttributeValues: { ':rev': job.rev },
    },
  },
  ...countersMove({ tableName, keys }, job.status, null),
];
