import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ApiClient } from '../support/api-client';
import { pngImage } from '../support/fixtures';

const SETTLED = new Set(['completed', 'failed']);

/** Fair OCR across workspaces (issue 13), on the local runtime: its OCR pollers take turns by workspace. */
describe('OCR across workspaces', () => {
  const anonymous = new ApiClient(inject('baseUrl'));

  const statusOf = async (client: ApiClient, id: string): Promise<string> => (await client.get(`/api/documents/${id}`)).body?.status;

  it("completes another workspace's scan before half of the queue of a workspace's 20 scans is done", async () => {
    // Each sign-up gets a workspace of its own.
    const busy = (await anonymous.signUp('fair_busy')).client;
    const quiet = (await anonymous.signUp('fair_quiet')).client;
    // A page-sized scan (A5 at 300 dpi) keeps each job busy for seconds.
    const scan = (index: number) => pngImage(1748 + index, 2480);
    const busyIds: string[] = [];
    for (let index = 0; index < 20; index++) busyIds.push(await busy.uploadDocument(`busy-${index}.png`, scan(index)));
    const busyDone = async () => (await Promise.all(busyIds.map((id) => statusOf(busy, id)))).filter((status) => SETTLED.has(status)).length;

    // The runtime reads scans while they are uploaded: the queue is what is left when the other scan comes.
    const doneBefore = await busyDone();
    const quietId = await quiet.uploadDocument('quiet.png', scan(20));
    const deadline = Date.now() + 40_000;
    while (!SETTLED.has(await statusOf(quiet, quietId))) {
      if (Date.now() > deadline) throw new Error('the quiet workspace scan never settled');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const doneMeanwhile = (await busyDone()) - doneBefore;
    // The rest of the backlog is cancelled, so that the next test files find the runtime's OCR idle.
    await Promise.all(busyIds.map((id) => busy.delete(`/api/ocr/queue/${id}`)));
    while ((await busyDone()) < busyIds.length) await new Promise((resolve) => setTimeout(resolve, 250));

    expect(await statusOf(quiet, quietId)).toBe('completed');
    expect(20 - doneBefore).toBeGreaterThanOrEqual(8);
    expect(doneMeanwhile).toBeLessThan((20 - doneBefore) / 2);
  }, 90_000);
});
