import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';
import { until } from '../support/until';

const SETTLED = new Set(['completed', 'failed', 'cancelled']);
const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed', 'cancelled'] as const;
/** Longer than any OCR job takes, however loaded the machine: the test counts dispatches, not seconds. */
const PATIENT_MS = 120_000;

/** A job as the queue's own bookkeeping records it, on the runtime's clock. */
interface JobTimes {
  document_id: string;
  status: string;
  queued_at: string;
  started_at: string | null;
}

/**
 * Fair OCR across workspaces (issue 13), on the local runtime: its OCR pollers take turns by workspace. How soon
 * the other workspace's scan is done, on the clock, is a target of bench/isolation.ts.
 */
describe('OCR across workspaces', () => {
  const anonymous = new ApiClient(inject('baseUrl'));

  /** The workspace's jobs of every status (the queue lists the active ones unless asked for a status). */
  const jobsOf = async (client: ApiClient): Promise<JobTimes[]> => {
    const pages = await Promise.all(JOB_STATUSES.map((status) => client.get(`/api/ocr/queue?status=${status}&per_page=100`)));
    // A job that moved on between the reads is listed twice: the one that has started is the newer.
    const jobs = new Map<string, JobTimes>();
    for (const job of pages.flatMap((page) => page.body.data as JobTimes[])) {
      if (!jobs.get(job.document_id)?.started_at) jobs.set(job.document_id, job);
    }
    return [...jobs.values()];
  };
  const statusOf = async (client: ApiClient, id: string): Promise<string> => (await client.get(`/api/documents/${id}`)).body?.status;

  it("starts another workspace's scan before half of the backlog of a workspace's 20 scans is started", async () => {
    // Arrange: each sign-up gets a workspace of its own. A page-sized scan (A5 at 300 dpi) keeps each job busy.
    const busy = (await anonymous.signUp('fair_busy')).client;
    const quiet = (await anonymous.signUp('fair_quiet')).client;
    const scan = (index: number) => pngImage(1748 + index, 2480);
    // Uploaded at once, so that the backlog does not depend on how fast this machine uploads compared to its OCR.
    const busyIds = await Promise.all(Array.from({ length: 20 }, (_, index) => busy.uploadDocument(`busy-${index}.png`, scan(index))));

    // Act: the runtime reads scans while they are uploaded; the queue is what is left when the other scan comes.
    const quietId = await quiet.uploadDocument('quiet.png', scan(20));
    let quietJob: JobTimes | undefined;
    await until(
      async () => (quietJob = (await jobsOf(quiet)).find((job) => job.document_id === quietId && job.started_at !== null)) !== undefined,
      PATIENT_MS,
      'the quiet workspace scan started',
    );
    const busyJobs = (await jobsOf(busy)).filter((job) => busyIds.includes(job.document_id));
    // The rest of the backlog is cancelled, so that the next test files find the runtime's OCR idle.
    await Promise.all(busyIds.map((id) => busy.delete(`/api/ocr/queue/${id}`)));
    const settled = async (client: ApiClient, ids: string[]) => (await Promise.all(ids.map((id) => statusOf(client, id)))).every((status) => SETTLED.has(status));
    await until(async () => (await settled(busy, busyIds)) && (await settled(quiet, [quietId])), PATIENT_MS, 'the OCR queue idle');

    // Assert: counted by the queue's own record of when each job started, between the quiet scan's queueing and
    // its start. Taken in arrival order, the quiet scan would start after every busy scan still waiting.
    const queuedAt = Date.parse(quietJob!.queued_at);
    const startedAt = Date.parse(quietJob!.started_at!);
    const busyStarts = busyJobs.map((job) => (job.started_at === null ? Number.POSITIVE_INFINITY : Date.parse(job.started_at)));
    expect(busyJobs).toHaveLength(20);
    const backlog = busyStarts.filter((started) => started > queuedAt).length;
    const startedMeanwhile = busyStarts.filter((started) => started > queuedAt && started < startedAt).length;
    expect(backlog).toBeGreaterThanOrEqual(8);
    expect(startedMeanwhile).toBeLessThan(backlog / 2);
  }, 300_000);
});
