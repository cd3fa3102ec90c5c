import { lambdaEntry } from '../../shared/adapters/powertools/lambda-handler';
import { createTextractClient } from '../../shared/adapters/aws/clients';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoNotificationRepository } from '../../shared/adapters/aws/dynamodb/notification-repository';
import { DynamoQuotaCounts } from '../../shared/adapters/aws/dynamodb/quota-counts';
import { DynamoRuleRepository } from '../../shared/adapters/aws/dynamodb/rule-repository';
import { DynamoSettingsRepository } from '../../shared/adapters/aws/dynamodb/settings-repository';
import { DynamoUsageRepository } from '../../shared/adapters/aws/dynamodb/usage-repository';
import { s3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { lazySqsOcrJobQueues } from '../../shared/adapters/aws/sqs/lazy-ocr-job-queues';
import { TextractOcrEngine } from '../../shared/adapters/aws/textract/ocr-engine';
import { lambdaBusinessMetrics } from '../../shared/adapters/powertools/powertools-metrics';
import { lazyRe2RegexEngine } from '../../shared/adapters/re2/lazy-re2-regex-engine';
import { workspaceFileStore } from '../../shared/domain/documents/bucket-layout';
import { imagingServices } from '../../shared/container/kit/imaging';
import { workspaceDirectory } from '../../shared/container/kit/accounts';
import { bucketName, OCR_STALE_AFTER_SECONDS, ocrQueueUrls } from '../../shared/container/kit/aws-env';
import { awsWorker } from '../../shared/container/kit/aws-worker';
import { documentRepository, ocrJobRepository, ruleLog } from '../../shared/container/kit/workspace-stores';
import { createOcrWorkerHandler } from './handler';

/*
 * The OCR worker: Textract reading from the bucket, pdf.js for PDF text layers, the workspace's stores, and the
 * OCR queues, where a job Textract is throttling goes back with a delay.
 */
const { table, clock, env } = awsWorker();
const directory = workspaceDirectory(table, env, clock);
const documents = documentRepository(table, clock, directory);
const ocrJobs = ocrJobRepository(table, clock, directory);
const bucket = bucketName(process.env);
const files = s3FileStore(bucket);
// The SQS client loads with the first job handed back: the event source feeds the worker, which sends nothing else.
const queues = lazySqsOcrJobQueues(ocrQueueUrls(process.env));
const metrics = lambdaBusinessMetrics();
const { textLayer, searchablePdf } = imagingServices(process.env, { prestart: false });

export const handler = lambdaEntry(
  createOcrWorkerHandler({
    clock,
    metrics,
    regex: lazyRe2RegexEngine(),
    ruleLog,
    settings: new DynamoSettingsRepository(table.db, table.name),
    notifications: new DynamoNotificationRepository(table.db, table.name),
    quotaCounts: new DynamoQuotaCounts(table.db, table.name),
    usage: new DynamoUsageRepository(table.db, table.name),
    plans: directory.plans,
    workspaceStatus: directory.workspaceStatus,
    // Pages that need OCR beside pages with a text layer go to Textract one by one, as one-page PDFs.
    engine: new TextractOcrEngine({ client: createTextractClient(), bucket, metrics, pagePdfs: (bytes, pages) => textLayer.pagePdfs(bytes, pages) }),
    textLayer,
    // Scanned blank pages, and image files of blank paper, are found from their pixels drawn small, and never sent to Textract.
    blankPages: textLayer,
    searchablePdf,
    staleAfterSeconds: OCR_STALE_AFTER_SECONDS,
    forWorkspace: (workspaceId) => ({
      workspaceId,
      documents: documents(workspaceId),
      ocrJobs: ocrJobs(workspaceId),
      labels: new DynamoLabelRepository(table.db, table.name, workspaceId),
      rules: new DynamoRuleRepository(table.db, table.name, workspaceId),
      files: workspaceFileStore(files, workspaceId),
      ocrQueue: queues.forWorkspace(workspaceId),
    }),
  }),
);
