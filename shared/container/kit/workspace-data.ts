import { DynamoLabelRepository } from '../../adapters/aws/dynamodb/label-repository';
import { DynamoPendingUploadRepository } from '../../adapters/aws/dynamodb/pending-upload-repository';
import { DynamoRuleRepository } from '../../adapters/aws/dynamodb/rule-repository';
import { DynamoSourceRepository } from '../../adapters/aws/dynamodb/source-repository';
import { DynamoSyncStateStore } from '../../adapters/aws/dynamodb/sync-state-store';
import type { Clock } from '../../domain/clock';
import type { DocumentRepository, PendingUploadRepository } from '../../domain/documents/ports';
import type { LabelRepository } from '../../domain/labels/ports';
import type { OcrJobRepository } from '../../domain/ocr/ports';
import type { RuleRepository } from '../../domain/rules/ports';
import type { SourceRepository, SyncStateStore } from '../../domain/sources/ports';
import type { WorkspaceDirectory } from './accounts';
import type { Table } from './table';
import { documentRepository, ocrJobRepository } from './workspace-stores';

/** One workspace's stores over the table, each reaching only the workspace's keys. */
export interface WorkspaceTableStores {
  workspaceId: string;
  documents: DocumentRepository;
  uploads: PendingUploadRepository;
  labels: LabelRepository;
  ocrJobs: OcrJobRepository;
  sources: SourceRepository;
  syncState: SyncStateStore;
  rules: RuleRepository;
}

/** Makes the named stores of one workspace, and only those. */
export type PickStores = <K extends keyof WorkspaceTableStores>(...names: K[]) => (workspaceId: string) => Pick<WorkspaceTableStores, K>;

/**
 * Every workspace-scoped store over the table, for what carries them all (the local runtime, the tests): each
 * handler's `forWorkspace` names those it declares (`stores('documents', 'labels')`). A Lambda entry writes its
 * few constructors out instead, so that its bundle carries no other repository.
 */
export function workspaceTableStores(table: Table, clock: Clock, directory: Pick<WorkspaceDirectory, 'plans' | 'workspaceStatus'>): PickStores {
  const documents = documentRepository(table, clock, directory);
  const ocrJobs = ocrJobRepository(table, clock, directory);
  const builders: { [K in keyof WorkspaceTableStores]: (workspaceId: string) => WorkspaceTableStores[K] } = {
    workspaceId: (workspaceId) => workspaceId,
    documents,
    uploads: (workspaceId) => new DynamoPendingUploadRepository(table.db, table.name, workspaceId, clock),
    labels: (workspaceId) => new DynamoLabelRepository(table.db, table.name, workspaceId),
    ocrJobs,
    sources: (workspaceId) => new DynamoSourceRepository(table.db, table.name, workspaceId),
    syncState: (workspaceId) => new DynamoSyncStateStore(table.db, table.name, workspaceId),
    rules: (workspaceId) => new DynamoRuleRepository(table.db, table.name, workspaceId),
  };
  return (...names) =>
    (workspaceId) =>
      Object.fromEntries(names.map((name) => [name, builders[name](workspaceId)])) as Pick<WorkspaceTableStores, (typeof names)[number]>;
}
