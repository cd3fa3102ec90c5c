import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDocumentRepository } from '../../../shared/adapters/aws/dynamodb/document-repository';
import { DynamoLabelRepository } from '../../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoOcrJobRepository } from '../../../shared/adapters/aws/dynamodb/ocr-job-repository';
import { DynamoPendingUploadRepository } from '../../../shared/adapters/aws/dynamodb/pending-upload-repository';
import { DynamoRuleDocuments } from '../../../shared/adapters/aws/dynamodb/rule-documents';
import { DynamoRuleRepository } from '../../../shared/adapters/aws/dynamodb/rule-repository';
import { DynamoSettingsRepository } from '../../../shared/adapters/aws/dynamodb/settings-repository';
import { DynamoWorkspaceRepository } from '../../../shared/adapters/aws/dynamodb/workspace-repository';
import { ensureBucket, ensureQueueWithDlq } from '../../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../../shared/adapters/aws/s3/file-store';
import type { OcrQueueMessageBody } from '../../../shared/adapters/aws/sqs/ocr-job-queue';
import { SqsOcrJobQueue } from '../../../shared/adapters/aws/sqs/ocr-job-queue';
import { sha256 } from '../../../shared/adapters/crypto/sha256';
import { TesseractOcrEngine } from '../../../shared/adapters/local/tesseract-ocr-engine';
import { lazyRe2RegexEngine } from '../../../shared/adapters/re2/lazy-re2-regex-engine';
import { systemClock, type Clock } from '../../../shared/domain/clock';
import { workspaceFileStore } from '../../../shared/domain/documents/bucket-layout';
import { AppError } from '../../../shared/domain/errors';
import type { OcrPriority } from '../../../shared/domain/ocr/jobs';
import type { Principal } from '../../../shared/domain/principal';
import { testClients, freshTable, uniqueName } from '../../support/aws-resources';
import { RecordedMetrics } from '../../support/ocr-pipeline';

/**
 * The stores the domain's use cases speak to, built from their adapters on the integration engines (a fresh
 * DynamoDB Local table, an S3 emulator bucket, the two OCR queues of the SQS emulator, Tesseract's installed
 * languages, RE2), without a container: `inWorkspace()` gives one workspace's, a fresh one unless named.
 */
export async function domainStores(options: { clock?: Clock } = {}) {
  const { db, tableName } = await freshTable();
  const { s3, sqs } = testClients();
  const bucket = uniqueName('domain');
  await ensureBucket(s3, bucket);
  const queues = {
    normal: await ensureQueueWithDlq(sqs, uniqueName('ocr'), { visibilityTimeoutSeconds: 30 }),
    high: await ensureQueueWithDlq(sqs, uniqueName('ocr-high'), { visibilityTimeoutSeconds: 30 }),
  };
  const bucketFiles = new S3FileStore(s3, bucket);
  const ocrQueues = new SqsOcrJobQueue(sqs, { normal: queues.normal.queueUrl, high: queues.high.queueUrl });
  const clock = options.clock ?? systemClock;
  const settings = new DynamoSettingsRepository(db, tableName);
  const workspaces = new DynamoWorkspaceRepository(db, tableName);
  const regex = lazyRe2RegexEngine();
  const tesseract = new TesseractOcrEngine();
  /** What applying rules reported instead of failing the use case that applied them. */
  const ruleProblems: { message: string; fields: Record<string, unknown> }[] = [];

  const inWorkspace = (workspaceId: string = crypto.randomUUID()) => {
    const files = workspaceFileStore(bucketFiles, workspaceId);
    return {
      workspaceId,
      documents: new DynamoDocumentRepository(db, tableName, workspaceId, clock),
      labels: new DynamoLabelRepository(db, tableName, workspaceId),
      uploads: new DynamoPendingUploadRepository(db, tableName, workspaceId, clock),
      ocrJobs: new DynamoOcrJobRepository(db, tableName, workspaceId),
      rules: new DynamoRuleRepository(db, tableName, workspaceId),
      ruleDocuments: new DynamoRuleDocuments(db, tableName, workspaceId, files),
      files,
      ocrQueue: ocrQueues.forWorkspace(workspaceId),
      settings,
      clock,
      regex,
      sha256,
      ocrLanguages: () => tesseract.languages(),
      metrics: new RecordedMetrics(),
      ruleLog: (message: string, fields: Record<string, unknown>) => void ruleProblems.push({ message, fields }),
    };
  };

  /** Messages received from the OCR queues, by workspace, not yet asked for. */
  const received = new Map<string, OcrQueueMessageBody[]>();
  /**
   * The OCR messages sent for the workspace since last asked (on the queue of `priority`): every visible message
   * is received and deleted, and those of other workspaces are kept for when they are asked for.
   */
  const ocrMessages = async (workspaceId: string, priority: OcrPriority = 'normal'): Promise<OcrQueueMessageBody[]> => {
    const queueUrl = queues[priority].queueUrl;
    for (;;) {
      // No wait: what was sent before this call is visible at once, so an empty receive means there is no more.
      const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
      if (!Messages.length) break;
      for (const message of Messages) {
        const body = JSON.parse(message.Body!) as OcrQueueMessageBody;
        received.set(`${priority}:${body.workspace_id}`, [...(received.get(`${priority}:${body.workspace_id}`) ?? []), body]);
        await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));
      }
    }
    const mine = received.get(`${priority}:${workspaceId}`) ?? [];
    received.delete(`${priority}:${workspaceId}`);
    return mine;
  };

  return { db, tableName, s3, sqs, bucket, bucketFiles, queues, settings, workspaces, clock, regex, ruleProblems, inWorkspace, ocrMessages };
}

export type WorkspaceStores = ReturnType<Awaited<ReturnType<typeof domainStores>>['inWorkspace']>;

/** An editor of the workspace, as a request's caller. */
export const editorOf = (workspaceId: string, username = 'editor'): Principal => ({
  userId: `${username}-id`,
  username,
  email: `${username}@example.com`,
  role: 'editor',
  workspaceId,
  jti: crypto.randomUUID(),
  tokenExpiresAt: new Date(Date.now() + 3_600_000),
});

/** The AppError a promise is refused with, as code, status and details (or what else it threw; null if it resolved). */
export const refusalOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? { code: error.code, status: error.status, message: error.message, details: error.details } : error),
  );
