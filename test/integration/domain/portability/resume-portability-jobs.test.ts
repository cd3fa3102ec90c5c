import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoPortabilityJobRepository, DynamoUnfinishedPortabilityJobs } from '../../../../shared/adapters/aws/dynamodb/portability-job-repository';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { SqsPortabilityQueue } from '../../../../shared/adapters/aws/sqs/portability-queue';
import type { ExportJob, ImportJob } from '../../../../shared/domain/portability/jobs';
import type { PortabilityMessage } from '../../../../shared/domain/portability/ports';
import { resumePortabilityJobs } from '../../../../shared/domain/portability/resume-portability-jobs';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { takeQueued } from '../../../support/queued-messages';

const at = '2026-11-29T08:00:00.000Z';
const anExport = (id: string): ExportJob => ({
  id, state: 'queued', created_by: 'admin', created_at: at, updated_at: at, finished_at: null, documents_total: 0, documents_done: 0, bytes_done: 0,
  archive_key: null, archive_size: null, archive_sha256: null, failure_reason: null,
});
const anImport = (id: string): ImportJob => ({
  id, state: 'queued', created_by: 'admin', created_at: at, updated_at: at, finished_at: null, size: 10, archive_key: `imports/${id}.tar.gz`,
  upload_expires_at: at, documents_total: 0, documents_done: 0, result: null, failure_reason: null,
});

/** Unfinished jobs in the application table (DynamoDB Local), queued again on the SQS emulator; a fresh table per test. */
describe('resumePortabilityJobs', () => {
  const sqs = testClients().sqs;
  let table: Awaited<ReturnType<typeof freshTable>>;
  let deps: Parameters<typeof resumePortabilityJobs>[0];
  let queueUrl: string;
  const jobsOf = (workspaceId: string) => new DynamoPortabilityJobRepository(table.db, table.tableName, workspaceId);

  beforeEach(async () => {
    table = await freshTable();
    ({ queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('portability'), { visibilityTimeoutSeconds: 30 }));
    deps = { unfinished: new DynamoUnfinishedPortabilityJobs(table.db, table.tableName), queue: new SqsPortabilityQueue(sqs, queueUrl) };
  });

  it('queues every unfinished job again, with its workspace and kind', async () => {
    // Arrange
    const [exporting, importing] = [crypto.randomUUID(), crypto.randomUUID()];
    const [exportId, importId] = [crypto.randomUUID(), crypto.randomUUID()];
    await jobsOf(exporting).createExport(anExport(exportId));
    await jobsOf(importing).createImport(anImport(importId));

    // Act
    const resumed = await resumePortabilityJobs(deps);

    // Assert
    expect(resumed).toBe(2);
    const queued = await takeQueued<PortabilityMessage>(sqs, queueUrl);
    expect(queued).toHaveLength(2);
    expect(queued).toEqual(
      expect.arrayContaining([
        { kind: 'export', workspace_id: exporting, job_id: exportId },
        { kind: 'import', workspace_id: importing, job_id: importId },
      ]),
    );
  });

  it('leaves completed and failed jobs alone', async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    const [completed, failed] = [crypto.randomUUID(), crypto.randomUUID()];
    await jobsOf(workspaceId).createExport(anExport(completed));
    await jobsOf(workspaceId).createExport(anExport(failed));
    await jobsOf(workspaceId).updateExport(completed, { state: 'completed' });
    await jobsOf(workspaceId).updateExport(failed, { state: 'failed' });

    // Act
    const resumed = await resumePortabilityJobs(deps);

    // Assert
    expect(resumed).toBe(0);
    expect(await takeQueued(sqs, queueUrl)).toEqual([]);
  });

  it('queues an import that is running again, as one its runtime left mid-way', async () => {
    // Arrange
    const workspaceId = crypto.randomUUID();
    const id = crypto.randomUUID();
    await jobsOf(workspaceId).createImport(anImport(id));
    await jobsOf(workspaceId).updateImport(id, { state: 'importing' });

    // Act
    await resumePortabilityJobs(deps);

    // Assert
    expect(await takeQueued(sqs, queueUrl)).toEqual([{ kind: 'import', workspace_id: workspaceId, job_id: id }]);
  });
});
