import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoPortabilityJobRepository, DynamoUnfinishedPortabilityJobs } from '../../../../../shared/adapters/aws/dynamodb/portability-job-repository';
import type { ExportJob } from '../../../../../shared/domain/portability/jobs';
import { freshTable } from '../../../../support/aws-resources';

const at = '2026-11-29T08:00:00.000Z';
const anExport = (id: string): ExportJob => ({
  id,
  state: 'queued',
  created_by: 'admin',
  created_at: at,
  updated_at: at,
  finished_at: null,
  documents_total: 0,
  documents_done: 0,
  bytes_done: 0,
  archive_key: null,
  archive_size: null,
  archive_sha256: null,
  failure_reason: null,
});

/** Exports and imports in the application table (DynamoDB Local). */
describe('the portability job repository', () => {
  let table: { db: Awaited<ReturnType<typeof freshTable>>['db']; tableName: string };
  const jobsOf = (workspaceId: string) => new DynamoPortabilityJobRepository(table.db, table.tableName, workspaceId);
  const unfinished = () => new DynamoUnfinishedPortabilityJobs(table.db, table.tableName);

  beforeAll(async () => {
    table = await freshTable();
  });

  it('lists a queued export among the unfinished jobs, and forgets it once it completed', async () => {
    const workspaceId = crypto.randomUUID();
    const id = crypto.randomUUID();
    await jobsOf(workspaceId).createExport(anExport(id));
    const listedQueued = (await unfinished().list()).some((job) => job.job_id === id);

    await jobsOf(workspaceId).updateExport(id, { state: 'completed' });

    expect({ listedQueued, listedCompleted: (await unfinished().list()).some((job) => job.job_id === id) }).toEqual({ listedQueued: true, listedCompleted: false });
  });

  it('changes a job only from the states given', async () => {
    const workspaceId = crypto.randomUUID();
    const id = crypto.randomUUID();
    await jobsOf(workspaceId).createExport(anExport(id));

    const fromRunning = await jobsOf(workspaceId).updateExport(id, { state: 'failed' }, ['running']);

    expect({ fromRunning, state: (await jobsOf(workspaceId).getExport(id))?.state }).toEqual({ fromRunning: false, state: 'queued' });
  });

  it("answers another workspace's export as none", async () => {
    const id = crypto.randomUUID();
    await jobsOf(crypto.randomUUID()).createExport(anExport(id));

    expect(await jobsOf(crypto.randomUUID()).getExport(id)).toBeNull();
  });

  it('gives the import slot to one import at a time, and again to the one that holds it', async () => {
    const jobs = jobsOf(crypto.randomUUID());

    const first = await jobs.holdImportSlot('import-1');
    const again = await jobs.holdImportSlot('import-1');
    const second = await jobs.holdImportSlot('import-2');
    await jobs.releaseImportSlot('import-1');
    const afterRelease = await jobs.holdImportSlot('import-2');

    expect({ first, again, second, afterRelease }).toEqual({ first: true, again: true, second: false, afterRelease: true });
  });
});
