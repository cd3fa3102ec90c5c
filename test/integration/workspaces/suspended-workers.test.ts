import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import type { OcrEngine } from '../../../shared/domain/ocr/ports';
import { processOcrJob } from '../../../shared/domain/ocr/process-ocr-job';
import { runSyncStep } from '../../../shared/domain/sources/run-sync-step';
import { scheduleSyncs } from '../../../shared/domain/sources/schedule-syncs';
import { deliverWebhook } from '../../../shared/domain/webhooks/deliver-webhook';
import { workspaceServes } from '../../../shared/domain/workspaces/workspace-status';
import { ocrPipeline } from '../../support/ocr-pipeline';

/** An engine that reads one page, and counts its calls. */
const oneWordEngine = () => {
  let calls = 0;
  const engine: OcrEngine = {
    languages: async () => ['eng'],
    recognize: async () => (calls++, { text: 'read', confidence: 0.9, pages: 1 }),
  };
  return { engine, calls: () => calls };
};
const SCAN = new Uint8Array(Buffer.from('%PDF-1.4 a scan without a text layer'));

/** What the workers do with the work of a suspended workspace: nothing yet, and nothing lost. */
describe('workers of a suspended workspace', () => {
  it('leaves an OCR job queued and its message coming back, and runs it once the workspace is resumed', async () => {
    const { engine, calls } = oneWordEngine();
    const { worker, deps, container, sqs, normal, upload } = await ocrPipeline(engine);
    const document = await upload(SCAN);
    await container.workspaces.setPlanAndStatus(deps.workspaceId, { status: 'suspended' });
    const message = { documentId: document.id, run: 1, priority: 'normal' as const };

    const waiting = await processOcrJob({ ...deps, quotas: worker }, message);
    const job = await deps.ocrJobs.get(document.id);
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: normal.queueUrl, AttributeNames: ['ApproximateNumberOfMessagesDelayed'] }));
    await container.workspaces.setPlanAndStatus(deps.workspaceId, { status: 'active' });
    const resumed = await processOcrJob({ ...deps, quotas: worker }, message);

    expect(waiting).toBe('deferred');
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    expect(Number(Attributes?.['ApproximateNumberOfMessagesDelayed'])).toBe(1);
    expect(resumed).toBe('completed');
    expect(calls()).toBe(1);
  });

  it("ends an OCR run that would pass the month's pages failed with quota_exceeded, keeping the document", async () => {
    const { engine } = oneWordEngine();
    const { worker, deps, documents, upload } = await ocrPipeline(engine);
    const noPages = { ...worker, plans: { defaultPlan: 'none', plans: { none: { ...worker.plans.plans['default']!, ocr_pages_per_month: 0 } } } };
    const document = await upload(SCAN);

    const outcome = await processOcrJob({ ...deps, quotas: noPages }, { documentId: document.id, run: 1, priority: 'normal' });

    expect(outcome).toBe('failed');
    expect(await documents.get(document.id)).toMatchObject({ status: 'failed', failure_reason: expect.stringMatching(/^quota_exceeded/) });
  });

  it('runs no step of a sync and starts no scheduled sync', async () => {
    const { container, deps } = await ocrPipeline(oneWordEngine().engine);
    await container.workspaces.setPlanAndStatus(deps.workspaceId, { status: 'suspended' });
    const serves = () => workspaceServes(container.workspaceStatus, deps.workspaceId);
    const due = [{ workspaceId: deps.workspaceId, sourceId: crypto.randomUUID() }];
    let started = 0;

    const step = await runSyncStep({ ...deps, stepSeconds: 10, serves } as never, { workspace_id: deps.workspaceId, source_id: crypto.randomUUID(), job_id: crypto.randomUUID() });
    const scheduled = await scheduleSyncs(
      {
        schedule: { due: async () => due, stalled: async () => [{ ...due[0]!, jobId: crypto.randomUUID() }] } as never,
        syncQueue: { enqueue: async () => void started++ },
        clock: container.clock,
        inWorkspace: () => ({ sources: { releaseJob: async () => undefined } }) as never,
        serves: (id) => workspaceServes(container.workspaceStatus, id),
      },
      { stalledAfterSeconds: 60, takeOverLeases: false },
    );

    expect(step).toBe('skipped');
    expect(scheduled).toMatchObject({ started: 0 });
    expect(started).toBe(0);
  });

  it('puts a webhook delivery back on its queue, unsent', async () => {
    const { container, deps } = await ocrPipeline(oneWordEngine().engine);
    await container.workspaces.setPlanAndStatus(deps.workspaceId, { status: 'suspended' });
    const requeued: unknown[] = [];
    let sent = 0;

    const step = await deliverWebhook(
      {
        inWorkspace: () => ({ deliveries: { get: async () => (sent++, null) } }) as never,
        sender: { send: async () => (sent++, { status: 200 }) } as never,
        vault: {} as never,
        deliveryQueue: { enqueue: async (message: unknown) => void requeued.push(message) },
        clock: container.clock,
        serves: (id) => workspaceServes(container.workspaceStatus, id),
      },
      { workspace_id: deps.workspaceId, webhook_id: crypto.randomUUID(), delivery_id: 'msg_1', attempts: 0 },
    );

    expect(step).toBe('waiting');
    expect(requeued).toHaveLength(1);
    expect(sent).toBe(0);
  });
});
