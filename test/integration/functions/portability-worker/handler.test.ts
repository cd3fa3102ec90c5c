import type { SQSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPortabilityWorkerHandler, type PortabilityWorkerDeps } from '../../../../functions/portability-worker/handler';
import type { ExportJob } from '../../../../shared/domain/portability/jobs';
import type { WorkspaceStatus } from '../../../../shared/domain/workspaces/workspace';
import { testClients } from '../../../support/aws-resources';
import { portabilityDeps, testKit } from '../../../support/test-kit';

const at = '2026-11-29T08:00:00.000Z';
const sqsEvent = (body: unknown): SQSEvent =>
  ({ Records: [{ messageId: crypto.randomUUID(), receiptHandle: 'r', body: JSON.stringify(body), attributes: { ApproximateReceiveCount: '1' }, messageAttributes: {} }] }) as unknown as SQSEvent;

/** The portability worker against DynamoDB Local: what it does with jobs of a workspace that does not serve. */
describe('the portability worker', () => {
  let c: PortabilityWorkerDeps;
  let handler: ReturnType<typeof createPortabilityWorkerHandler>;

  beforeAll(async () => {
    const kit = await testKit();
    // The bucket and the audit table are never reached: no job of a workspace that does not serve runs.
    c = portabilityDeps(kit, { s3: testClients().s3, bucket: 'unused-bucket', auditTableName: 'unused-audit-table' });
    handler = createPortabilityWorkerHandler(c);
  });

  /** A workspace in `status` with a queued export. */
  async function queuedExport(status: WorkspaceStatus): Promise<{ workspaceId: string; id: string }> {
    const workspaceId = crypto.randomUUID();
    await c.workspaces.create({ id: workspaceId, name: 'w', created_at: at, status });
    const id = crypto.randomUUID();
    const job: ExportJob = {
      id, state: 'queued', created_by: 'admin', created_at: at, updated_at: at, finished_at: null, documents_total: 0, documents_done: 0, bytes_done: 0,
      archive_key: null, archive_size: null, archive_sha256: null, failure_reason: null,
    };
    await c.portability.jobs(workspaceId).createExport(job);
    return { workspaceId, id };
  }

  it("ends a suspended workspace's export failed, saying why", async () => {
    const { workspaceId, id } = await queuedExport('suspended');

    await handler(sqsEvent({ kind: 'export', workspace_id: workspaceId, job_id: id }));

    const job = await c.portability.jobs(workspaceId).getExport(id);
    expect({ state: job?.state, reason: job?.failure_reason }).toEqual({ state: 'failed', reason: 'workspace_suspended: the workspace is suspended; ask again once it is active' });
  });

  it('runs nothing of a workspace being deleted', async () => {
    const { workspaceId, id } = await queuedExport('deleting');

    const response = await handler(sqsEvent({ kind: 'export', workspace_id: workspaceId, job_id: id }));

    expect({ failures: response.batchItemFailures, state: (await c.portability.jobs(workspaceId).getExport(id))?.state }).toEqual({ failures: [], state: 'queued' });
  });
});
