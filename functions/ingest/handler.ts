import * as z from '../../shared/zod';
import type { DocumentRepository, PendingUploadRepository } from '../../shared/domain/documents/ports';
import type { FileStore } from '../../shared/domain/files/ports';
import type { LabelRepository } from '../../shared/domain/labels/ports';
import type { BusinessMetrics } from '../../shared/domain/metrics/ports';
import type { OcrJobQueue } from '../../shared/domain/ocr/ports';
import type { RuleApplyDeps, RuleRepository } from '../../shared/domain/rules/ports';
import { inWorkspace, type WorkspaceScoped } from '../../shared/container/kit/workspace-scope';
import { stagedObject } from '../../shared/domain/documents/bucket-layout';
import { ingestUploadedFile } from '../../shared/domain/documents/ingest-uploaded-file';
import { logger } from '../../shared/observability/logger';
import { sqsJsonHandler } from '../../shared/queue/sqs-batch';

/** The part of an S3 event notification the ingest reads; S3's `s3:TestEvent` has no Records and is skipped. */
const s3Record = z.object({ eventName: z.string(), s3: z.object({ object: z.object({ key: z.string() }) }) });
const s3Notification = z.object({ Records: z._default(z.array(s3Record), []) });

/** S3 notifications URL-encode keys, with + for spaces. */
const objectKey = (encoded: string) => decodeURIComponent(encoded.replace(/\+/g, ' '));

/** What the ingest worker uses. */
export type IngestDeps = Pick<RuleApplyDeps, 'clock' | 'regex' | 'ruleLog'> & { metrics: BusinessMetrics } & WorkspaceScoped<{
    workspaceId: string;
    documents: DocumentRepository;
    uploads: PendingUploadRepository;
    labels: LabelRepository;
    rules: RuleRepository;
    files: FileStore;
    ocrQueue: OcrJobQueue;
  }>;

/**
 * Finishes presigned uploads: the bucket sends its object-created events for `uploads/` to a queue, and each
 * staged file is checked and turned into a document of the workspace its key names. A malformed message, or a
 * key that is not a staged upload, is logged and dropped (retrying cannot help); a failing ingest is retried.
 */
export const createIngestHandler = (c: IngestDeps) =>
  sqsJsonHandler('ingest', s3Notification, async (notification) => {
    for (const record of notification.Records) {
      if (!record.eventName.startsWith('ObjectCreated:')) continue;
      const key = objectKey(record.s3.object.key);
      const staged = stagedObject(key);
      const outcome = staged ? await ingestUploadedFile(inWorkspace(c, staged), staged.key) : 'ignored';
      logger.info('ingest: staged upload processed', { key, outcome });
    }
  });
