import { SOURCE_SYNC_TIMEOUT_SECONDS } from '../../manifest';
import type { NotificationRepository } from '../notifications/ports';
import { notifyUser } from '../notifications/notify-user';
import { compileFilePatterns } from './file-patterns';
import { ocrLanguageFor } from '../ocr/ocr-language';
import type { SettingsRepository } from '../settings/ports';
import type { CredentialVault, SourceRepository, SyncProgress, SyncQueue, SyncStepMessage } from './ports';
import { SourceAccessError, type RemoteFolders } from './remote-folder';
import { accessFailureReason } from './check-source-access';
import { nextSyncAfter, type SourceRecord } from './source';
import { parentOf, walkDirectory } from './sync-directory';
import { syncFile, type FileOutcome, type FileSyncDeps } from './sync-file';
import type { SyncJob } from './sync-job';

export interface SyncStepDeps extends Omit<FileSyncDeps, 'ocrLanguage'> {
  settings: SettingsRepository;
  workspaceId: string;
  sources: SourceRepository;
  vault: CredentialVault;
  remoteFolders: RemoteFolders;
  syncQueue: SyncQueue;
  notifications: NotificationRepository;
  /** How long one step works before it hands the rest of the sync to a new message. */
  stepSeconds: number;
  /**
   * Whether the workspace serves now: a suspended one's step does nothing (its sync waits, stalled, and the
   * schedule resumes it once the workspace is resumed).
   */
  serves?: () => Promise<boolean>;
}

/** Files fetched per read of the work list. */
const FILE_BATCH = 16;
/** Files fetched side by side within a step. */
export const SYNC_FILE_CONCURRENCY = 4;

async function eachConcurrently<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}

export type StepOutcome = 'finished' | 'continued' | 'skipped';

/**
 * The starts of a step a sync gets without progress (its worker crashed, timed out or failed each time): the
 * next start ends it as failed, rather than resuming it at every restart and stalled lease for ever.
 */
export const MAX_STEP_ATTEMPTS = 3;
export const GAVE_UP = `gave up after ${MAX_STEP_ATTEMPTS} attempts without progress: the sync's worker stopped, timed out or failed each time`;

/**
 * Runs one step of a sync: takes the job's lease (a second worker given the same message finds it held and
 * does nothing), then works through the job's saved work list, files first, then the next directory, until it
 * is empty or the step's time is up. Out of time, it saves nothing more than it had (every file and directory
 * is saved as it is done), lets the lease go and queues the next step: a sync of any size survives the end of
 * a Lambda or of the local runtime, and never fetches a finished file again. One failing file is counted and
 * reported; only a root that cannot be listed fails the whole sync, and a sync started more than
 * {@link MAX_STEP_ATTEMPTS} times without progress fails without running again.
 */
export async function runSyncStep(deps: SyncStepDeps, message: SyncStepMessage): Promise<StepOutcome> {
  if (deps.serves && !(await deps.serves())) return 'skipped';
  const started = deps.clock.now();
  const leaseUntil = new Date(started.getTime() + SOURCE_SYNC_TIMEOUT_SECONDS * 1000).toISOString();
  const job = await deps.sources.leaseJob(message.source_id, message.job_id, leaseUntil, started.toISOString());
  if (!job) return 'skipped';
  const source = await deps.sources.get(message.source_id);
  if (!source || source.current_job_id !== job.job_id) return 'skipped';
  try {
    if (job.attempts > MAX_STEP_ATTEMPTS) return await finish(deps, source, job, GAVE_UP);
    return await runLeasedStep(deps, message, source, job, started.getTime() + deps.stepSeconds * 1000);
  } catch (error) {
    // The message comes back (SQS redelivers a failed one): let the next delivery take the job at once.
    await deps.sources.releaseJob(source.id, job.job_id).catch(() => undefined);
    throw error;
  }
}

async function runLeasedStep(deps: SyncStepDeps, message: SyncStepMessage, source: SourceRecord, job: SyncJob, deadline: number): Promise<StepOutcome> {
  // Each write of the job is a change on the table's stream, from which the `events` consumer derives sync_progress.
  const progress = (change: SyncProgress) => deps.sources.recordProgress(job.source_id, job.job_id, change);
  let folder;
  try {
    const password = await deps.vault.open(source.password_sealed, { workspaceId: deps.workspaceId, sourceId: source.id });
    folder = deps.remoteFolders.open({ url: source.url, username: source.username, password });
  } catch {
    return finish(deps, source, job, 'the stored password could not be read; set it again');
  }
  const patterns = compileFilePatterns(source.file_patterns);
  const languages = new Map<string, Promise<string>>();
  const fileDeps = { ...deps, ocrLanguage: (userId: string) => languages.get(userId) ?? languages.set(userId, ocrLanguageFor(deps, userId, undefined)).get(userId)! };
  const step = { sourceId: source.id, jobId: job.job_id, recursive: source.recursive, fullWalk: job.full_walk, patterns };
  while (deps.clock.now().getTime() < deadline) {
    const files = await deps.syncState.work(job.job_id, 'file', FILE_BATCH);
    if (files.length && !(await stillCurrent(deps, source, job))) return 'skipped';
    // Files are independent: a few at a time keep the server, the bucket and the table busy at once.
    await eachConcurrently(files, SYNC_FILE_CONCURRENCY, async (item) => {
      if (item.kind !== 'file') return;
      const outcome = await syncFile(fileDeps, folder, source, item).catch(async (): Promise<FileOutcome> => {
        // A store failing on one file (the bucket, the table) fails that file, not the sync: it is tried again next time.
        await deps.syncState.distrustDirectory(source.id, parentOf(item.path)).catch(() => undefined);
        return { count: 'failed', reason: 'the file could not be stored; it is tried again on the next sync' };
      });
      await deps.syncState.workDone(job.job_id, item);
      await progress({
        counts: { [outcome.count]: 1 },
        currentFile: item.path,
        errors: outcome.reason && outcome.count !== 'unchanged' ? [{ path: item.path, reason: outcome.reason }] : [],
      });
    });
    if (files.length) continue;
    const directories = await deps.syncState.work(job.job_id, 'directory', FILE_BATCH);
    if (!directories.length) return finish(deps, source, job, null);
    let rootFailure: string | null = null;
    await eachConcurrently(directories, SYNC_FILE_CONCURRENCY, async (directory) => {
      if (directory.kind !== 'directory') return;
      try {
        const walked = await walkDirectory(deps, folder, step, directory);
        await progress({ total: walked.total, counts: walked.counts, errors: walked.skipped });
      } catch (error) {
        if (!(error instanceof SourceAccessError)) throw error;
        if (directory.path === '') {
          rootFailure = accessFailureReason(error);
          return;
        }
        await progress({ errors: [{ path: `${directory.path}/`, reason: error.message }] });
      }
      await deps.syncState.workDone(job.job_id, directory);
    });
    if (rootFailure) return finish(deps, source, job, rootFailure);
  }
  await deps.sources.releaseJob(source.id, job.job_id, { progressed: true });
  await deps.syncQueue.enqueue(message);
  return 'continued';
}

/** Whether the source still exists and this is still its sync (it may have been deleted meanwhile). */
async function stillCurrent(deps: SyncStepDeps, source: SourceRecord, job: SyncJob): Promise<boolean> {
  const now = await deps.sources.get(source.id);
  return now !== null && now.current_job_id === job.job_id;
}

/**
 * Ends the sync: the source idle again (with its error, if the sync failed), the editor who asked told. The
 * job's state moving to completed or failed is what the last sync_progress (current_file '') is derived from.
 */
async function finish(deps: SyncStepDeps, source: SourceRecord, job: SyncJob, failure: string | null): Promise<StepOutcome> {
  const finished = deps.clock.now();
  await deps.sources.finishJob(source.id, job.job_id, {
    state: failure ? 'failed' : 'completed',
    finishedAt: finished.toISOString(),
    failure,
    source: {
      error: failure,
      last_sync: finished.toISOString(),
      next_sync: nextSyncAfter(finished, source.sync_interval),
      last_full_walk: !failure && job.full_walk ? (job.started_at ?? finished.toISOString()) : source.last_full_walk,
    },
  });
  if (job.trigger === 'manual' && job.started_by) {
    const done = (await deps.sources.getJob(source.id, job.job_id)) ?? job;
    await notifyUser(deps, job.started_by, {
      type: failure ? 'source_sync_failed' : 'source_sync_completed',
      title: failure ? `Sync of ${source.name} failed` : `Sync of ${source.name} finished`,
      message: failure
        ? failure
        : `${done.new} new, ${done.changed} changed, ${done.unchanged} unchanged, ${done.duplicates} duplicates, ${done.skipped} skipped, ${done.failed} failed`,
      data: { source_id: source.id, job_id: job.job_id },
    }).catch(() => undefined);
  }
  return 'finished';
}
