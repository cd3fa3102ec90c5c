import { beforeEach, describe, expect, it } from 'vitest';
import { DynamoErasureRepository } from '../../../../shared/adapters/aws/dynamodb/erasure-repository';
import { ensureQueueWithDlq } from '../../../../shared/adapters/aws/provisioning';
import { SqsErasureQueue } from '../../../../shared/adapters/aws/sqs/erasure-queue';
import { NO_COUNTS, type Erasure } from '../../../../shared/domain/erasure/erasure';
import { resumeErasures, type ResumeErasuresDeps } from '../../../../shared/domain/erasure/resume-erasures';
import { freshTable, testClients, uniqueName } from '../../../support/aws-resources';
import { takeQueued } from '../../../support/queued-messages';

describe('resumeErasures', () => {
  const sqs = testClients().sqs;
  let queueUrl: string;
  let erasures: DynamoErasureRepository;
  let deps: ResumeErasuresDeps;

  const started = async (): Promise<string> => {
    const erasure: Erasure = {
      workspace_id: crypto.randomUUID(),
      workspace_name: 'Acme',
      requested_by: { user_id: crypto.randomUUID(), operator: false },
      requested_at: new Date().toISOString(),
      status: 'erasing',
      steps_done: [],
      counts: NO_COUNTS,
    };
    await erasures.start(erasure);
    return erasure.workspace_id;
  };
  /** The workspace ids of the erasures queued since the last call. */
  const queuedIds = async () => (await takeQueued<{ workspace_id: string }>(sqs, queueUrl)).map((message) => message.workspace_id).sort();

  beforeEach(async () => {
    const { db, tableName } = await freshTable();
    ({ queueUrl } = await ensureQueueWithDlq(sqs, uniqueName('erasure'), { visibilityTimeoutSeconds: 30 }));
    erasures = new DynamoErasureRepository(db, tableName);
    deps = { erasures, erasureQueue: new SqsErasureQueue(sqs, queueUrl) };
  });

  it('queues again every erasure not completed and answers how many', async () => {
    // Arrange
    const unfinished = [await started(), await started()];

    // Act
    const resumed = await resumeErasures(deps);

    // Assert
    expect(resumed).toBe(2);
    expect(await queuedIds()).toEqual(unfinished.sort());
  });

  it('leaves completed erasures alone, also one cut short after some of its steps', async () => {
    // Arrange
    const [completed, midway] = [await started(), await started()];
    await erasures.complete(completed, new Date().toISOString());
    await erasures.stepDone(midway, 'connections', { connections: 1 });

    // Act
    const resumed = await resumeErasures(deps);

    // Assert
    expect(resumed).toBe(1);
    expect(await queuedIds()).toEqual([midway]);
  });

  it('queues nothing when no erasure is unfinished', async () => {
    // Arrange: a fresh table without deletion records

    // Act
    const resumed = await resumeErasures(deps);

    // Assert
    expect(resumed).toBe(0);
    expect(await queuedIds()).toEqual([]);
  });
});
