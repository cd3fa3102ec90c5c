import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';

const SETTLED = new Set(['completed', 'failed']);

/** Fair OCR across workspaces (issue 13), on the local runtime: its OCR pollers take turns by workspace. */
describe('OCR across workspaces', () => {
  const anonymous = new ApiClient(inject('baseUrl'));

  const statusOf = async (client: ApiClient, id: string): Promise<string> => (await client.get(`/api/documents/${id}`)).body?.status;

  /** When each of the workspace's completed OCR jobs finished, by document, on the runtime's clock. */
  const finishedAt = async (client: ApiClient): Promise<Map<string, { queued: number; finished: number }>> => {
    const { body } = await client.get('/api/ocr/queue?status=completed&per_page=100');
    const jobs = body.data as { document_id: string; queued_at: string; finished_at: string }[];
    return new Map(jobs.map((job) => [job.document_id, { queued: Date.parse(job.queued_at), finished: Date.parse(job.finished_at) }]));
  };

  it("completes another workspace's scan before half of the queue of a workspace's 20 scans is done", async () => {
    // Arrange: each sign-up gets a workspace of its own. A page-sized scan (A5 at 300 dpi) keeps each job busy.
    const busy = (await anonymous.signUp('fair_busy')).client;
    const quiet = (await anonymous.signUp('fair_quiet')).client;
    const scan = (index: number) => pngImage(1748 + index, 2480);
    // Uploaded at once, so that the backlog does not depend on how fast this machine uploads compared to its OCR.
    const busyIds = await Promise.all(Array.from({ length: 20 }, (_, index) => busy.uploadDocument(`busy-${index}.png`, scan(index))));

    // Act: the runtime reads scans while they are uploaded; the queue is what is left when the other scan comes.
    const quietId = await quiet.uploadDocument('quiet.png', scan(20));
    const deadline = Date.now() + 40_000;
    while (!SETTLED.has(await statusOf(quiet, quietId))) {
      if (Date.now() > deadline) throw new Error('the quiet workspace scan never settled');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const quietJob = (await finishedAt(quiet)).get(quietId);
    const busyFinished = [...(await finishedAt(busy)).values()].map((job) => job.finished);
    // The rest of the backlog is cancelled, so that the next test files find the runtime's OCR idle.
    await Promise.all(busyIds.map((id) => busy.delete(`/api/ocr/queue/${id}`)));
    const busyDone = async () => (await Promise.all(busyIds.map((id) => statusOf(busy, id)))).filter((status) => SETTLED.has(status)).length;
    while ((await busyDone()) < busyIds.length) await new Promise((resolve) => setTimeout(resolve, 250));

    // Assert: counted on the runtime's clock, between the quiet scan's queueing and its end.
    expect(quietJob).toBeDefined();
    const backlog = 20 - busyFinished.filter((finished) => finished <= quietJob!.queued).length;
    const doneMeanwhile = busyFinished.filter((finished) => finished > quietJob!.queued && finished <= quietJob!.finished).length;
    expect(backlog).toBeGreaterThanOrEqual(8);
    expect(doneMeanwhile).toBeLessThan(backlog / 2);
  }, 90_000);
});
