import { DynamoDocumentRepository } from '../../adapters/aws/dynamodb/document-repository';
import { DynamoOcrJobRepository } from '../../adapters/aws/dynamodb/ocr-job-repository';
import type { OcrJobRepository } from '../../domain/ocr/ports';
import type { StorageLimits } from '../../adapters/aws/dynamodb/storage-ledger';
import type { Clock } from '../../domain/clock';
import type { DocumentRepository } from '../../domain/documents/ports';
import { planOf } from '../../domain/quotas/plans';
import type { WorkspaceUsageMeter } from '../../domain/usage/ports';
import { logger } from '../../observability/logger';
import type { WorkspaceDirectory } from './accounts';
import type { RequestMeter } from './request-gate';
import type { Table } from './table';
import { DynamoErasureRepository } from '../../adapters/aws/dynamodb/erasure-repository';
import { DynamoLabelRepository } from '../../adapters/aws/dynamodb/label-repository';
import { workspaceFileStore } from '../../domain/documents/bucket-layout';
import type { ErasureRepository } from '../../domain/erasure/ports';
import type { FileStore } from '../../domain/files/ports';
import type { SearchIndex, SearchIndexStore } from '../../domain/search/ports';
import type { LabelRepository } from '../../domain/labels/ports';
import type { WorkspaceScoped } from './workspace-scope';

/*
 * Builders of one workspace's stores that hold more than a constructor call. An entry's `forWorkspace` puts
 * together those its handler declares, each over the workspace's keys: the others are `new Dynamo...(db, name, id)`.
 */

/** A workspace's plan's storage limits now, read per change through the remembered workspace (a plan change holds within seconds). */
export const storageLimitsOf =
  ({ plans, workspaceStatus }: Pick<WorkspaceDirectory, 'plans' | 'workspaceStatus'>) =>
  (workspaceId: string) =>
  async (): Promise<StorageLimits> => {
    const plan = planOf(plans, (await workspaceStatus.plan(workspaceId)) ?? plans.defaultPlan);
    return { documents: plan.documents_stored, bytes: plan.bytes_stored };
  };

/** Each workspace's documents, bounded by its plan's storage limits. */
export const documentRepository =
  (table: Table, clock: Clock, directory: Pick<WorkspaceDirectory, 'plans' | 'workspaceStatus'>) =>
  (workspaceId: string): DocumentRepository =>
    new DynamoDocumentRepository(table.db, table.name, workspaceId, clock, storageLimitsOf(directory)(workspaceId));

/** Each workspace's OCR jobs; a searchable PDF's bytes count against its plan's storage. */
export const ocrJobRepository =
  (table: Table, clock: Clock, directory: Pick<WorkspaceDirectory, 'plans' | 'workspaceStatus'>) =>
  (workspaceId: string): OcrJobRepository =>
    new DynamoOcrJobRepository(table.db, table.name, workspaceId, storageLimitsOf(directory)(workspaceId), clock);

/** Counts the workspace's requests of the month (searches); never fails. */
export const workspaceUsageMeter = (meter: RequestMeter, workspaceId: string): WorkspaceUsageMeter => ({ count: (counts) => meter(workspaceId, counts) });

/** Where a failure to apply rules to a new or newly read document is logged. */
export const ruleLog = (message: string, fields: Record<string, unknown>): void => logger.warn(message, fields);

/** What indexing reads: each workspace's documents, labels, files and view of the index. */
export type IndexSources = WorkspaceScoped<{ documents: DocumentRepository; labels: LabelRepository; files: FileStore; searchIndex: SearchIndex }>;

/** What indexing reads (the indexer, the reconciliation, a rebuild): each workspace's documents, labels, files and index view. */
export function indexSources(
  table: Table,
  clock: Clock,
  directory: WorkspaceDirectory,
  bucket: FileStore,
  index: SearchIndexStore,
): IndexSources & Pick<WorkspaceDirectory, 'workspaces'> & { erasures: ErasureRepository } {
  const documents = documentRepository(table, clock, directory);
  return {
    workspaces: directory.workspaces,
    erasures: new DynamoErasureRepository(table.db, table.name),
    forWorkspace: (workspaceId) => ({
      documents: documents(workspaceId),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      files: workspaceFileStore(bucket, workspaceId),
      searchIndex: index.forWorkspace(workspaceId),
    }),
  };
}
