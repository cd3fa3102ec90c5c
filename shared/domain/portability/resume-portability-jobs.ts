import type { PortabilityQueue, UnfinishedPortabilityJobs } from './ports';

/**
 * Queues every unfinished export and import again: the local runtime's queue lives in memory, so its start does
 * this. A job delivered twice runs once (its run ends it; a message of an ended job does nothing).
 */
export async function resumePortabilityJobs(deps: { unfinished: UnfinishedPortabilityJobs; queue: PortabilityQueue }): Promise<number> {
  const jobs = await deps.unfinished.list();
  for (const job of jobs) await deps.queue.enqueue(job);
  return jobs.length;
}
