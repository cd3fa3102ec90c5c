import { tarGzipCodec } from '../../adapters/archive/tar-gzip-codec';
import { DynamoImportedTexts, DynamoPortabilityJobRepository, DynamoUnfinishedPortabilityJobs } from '../../adapters/aws/dynamodb/portability-job-repository';
import { S3ArchiveStore } from '../../adapters/aws/s3/archive-store';
import type {
  ArchiveCodec,
  ArchiveStore,
  ImportedTexts,
  PortabilityJobRepository,
  PortabilityQueue,
  UnfinishedPortabilityJobs,
} from '../../domain/portability/ports';
import type { Table } from './table';

/** What the export and import routes and their worker take. */
export interface PortabilityServices {
  portability: {
    jobs(workspaceId: string): PortabilityJobRepository;
    archives(workspaceId: string): ArchiveStore;
    texts(workspaceId: string): ImportedTexts;
    codec: ArchiveCodec;
    queue: PortabilityQueue;
    unfinished: UnfinishedPortabilityJobs;
  };
}

/** The portability stores over the application table and the bucket. */
export function dynamoPortabilityServices(
  db: Table['db'],
  tableName: string,
  s3: ConstructorParameters<typeof S3ArchiveStore>[0],
  bucket: string,
  queue: PortabilityQueue,
): PortabilityServices['portability'] {
  return {
    jobs: (workspaceId) => new DynamoPortabilityJobRepository(db, tableName, workspaceId),
    archives: (workspaceId) => new S3ArchiveStore(s3, bucket, workspaceId),
    texts: (workspaceId) => new DynamoImportedTexts(db, tableName, workspaceId),
    codec: tarGzipCodec,
    queue,
    unfinished: new DynamoUnfinishedPortabilityJobs(db, tableName),
  };
}
