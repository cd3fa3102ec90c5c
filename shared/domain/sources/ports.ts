import type { SourceRecord } from './source';
import type { SyncCounts, SyncError, SyncJob } from './sync-job';

/** What a source's stored fields may change to (the id, creator and creation time never change). */
export type SourceChanges = Partial<Omit<SourceRecord, 'id' | 'created_by' | 'created_at' | 'current_job_id' | 'last_job_id'>>;

/**
 * One workspace's sources and their syncs. Starting a sync is the lease that keeps a source from syncing twice
 * at once: it sets the source's `current_job_id` only when none is set, in one conditional write, however many
 * schedulers or editors ask at the same moment.
 */
export interface SourceRepository {
  create(source: SourceRecord): Promise<void>;
  get(id: string): Promise<SourceRecord | null>;
  /** Every source of the workspace, oldest first. */
  list(): Promise<SourceRecord[]>;
  /** Null when the source does not exist. */
  update(id: string, changes: SourceChanges): Promise<SourceRecord | null>;
  /** Removes the source, its sync history and its remembered tree (its documents stay); false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** How many documents of the workspace came from each source (exact: moved with each document's create and delete). */
  documentCounts(ids: string[]): Promise<Map<string, number>>;
  /** Records a queued sync and makes it the source's current one; 'busy' while another runs. */
  startJob(job: SyncJob): Promise<'started' | 'busy' | 'not_found'>;
  getJob(sourceId: string, jobId: string): Promise<SyncJob | null>;
  /**
   * Takes the job for one worker until `until`: when it is queued or running and its lease is free or expired.
   * Null when it finished or another worker holds it. Each lease taken counts as a start of a step.
   */
  leaseJob(sourceId: string, jobId: string, until: string, now: string): Promise<LeasedJob | null>;
  /**
   * Adds to the job's counters and errors, sets what it works on; keeps the lease. Work recorded is progress:
   * the starts without progress count from zero again.
   */
  recordProgress(sourceId: string, jobId: string, progress: SyncProgress): Promise<void>;
  /**
   * Lets the lease go (the next step of the job may start at once). `progressed`: the step ran its course, so
   * the starts without progress count from zero again.
   */
  releaseJob(sourceId: string, jobId: string, options?: { progressed?: boolean }): Promise<void>;
  /** Ends the job and makes the source idle again, in one write. */
  finishJob(sourceId: string, jobId: string, outcome: SyncOutcome): Promise<void>;
}

/** A job as its lease gives it to a worker. */
export type LeasedJob = SyncJob & {
  /** The starts of a step since the sync last made progress, this one included. */
  attempts: number;
};

export interface SyncProgress {
  counts?: Partial<SyncCounts>;
  /** Files found to consider (grows as the walk goes). */
  total?: number;
  currentFile?: string | null;
  errors?: SyncError[];
  /** The walk set this job's `full_walk` later (it found no remembered tree). */
  state?: 'running';
}

export interface SyncOutcome {
  state: 'completed' | 'failed';
  finishedAt: string;
  /** Why the whole sync failed (the root could not be listed). */
  failure: string | null;
  /** The source after it: its error (null on success) and when it syncs next. */
  source: { error: string | null; last_sync: string; next_sync: string; last_full_walk?: string | null };
}

/** What a sync remembers of a file between syncs: how it looked, and which document it became. */
export interface RememberedFile {
  etag: string | null;
  size: number | null;
  last_modified: string | null;
  /** The document made from it; null when the file was refused (its refusal is not retried until it changes). */
  document_id: string | null;
}

/** What a sync remembers of a directory: its ETag at the last complete listing, its files and subdirectories. */
export interface RememberedDirectory {
  etag: string | null;
  files: Map<string, RememberedFile>;
  /** Each subdirectory's ETag as this directory's listing gave it. */
  directories: Map<string, string | null>;
  /**
   * What each subdirectory held when it was last walked, while its ETag is still the one above: a leaf among
   * them whose ETag is unchanged need not be listed at all.
   */
  summaries: Map<string, DirectorySummary>;
}

/** How many files a walked directory has remembered, and how many subdirectories it has. */
export interface DirectorySummary {
  files: number;
  directories: number;
}

/** A unit of a sync's work, saved so that a sync survives the end of its worker and goes on where it was. */
export type SyncWorkItem =
  | { kind: 'directory'; path: string; etag: string | null }
  | {
      kind: 'file';
      path: string;
      etag: string | null;
      size: number | null;
      last_modified: string | null;
      /** The document this file becomes (chosen when the work is saved, so a retried file is never stored twice). */
      document_id: string;
      /** The document it replaces when the file changed. */
      replaces: string | null;
    };

/**
 * The remembered tree of each source (by directory) and the work list of each running sync. The tree is only
 * written once a file or directory was handled, so that what a failed step left undone is found again.
 */
export interface SyncStateStore {
  directory(sourceId: string, path: string): Promise<RememberedDirectory | null>;
  /** Saves a directory's ETag and subdirectories (the names listed now; others are forgotten with their trees). */
  saveDirectory(sourceId: string, path: string, etag: string | null, directories: Map<string, string | null>): Promise<void>;
  saveFile(sourceId: string, path: string, file: RememberedFile): Promise<void>;
  /** Forgets a directory's ETag (here and in its parent), so that the next sync lists it and compares its files (one of them failed). */
  distrustDirectory(sourceId: string, path: string): Promise<void>;
  /** Records in its parent what a walked directory holds, under the ETag it was walked with. */
  summarize(sourceId: string, path: string, etag: string | null, summary: DirectorySummary): Promise<void>;
  /** Forgets files no longer on the server (their documents stay). */
  forgetFiles(sourceId: string, paths: string[]): Promise<void>;
  /** Adds work to a job's list; an item already there is kept as it is. */
  addWork(jobId: string, items: SyncWorkItem[]): Promise<void>;
  /** Up to `limit` items of one kind still to do, in path order. */
  work(jobId: string, kind: SyncWorkItem['kind'], limit: number): Promise<SyncWorkItem[]>;
  workDone(jobId: string, item: SyncWorkItem): Promise<void>;
  /** Drops the source's tree and any work left (the source is gone). */
  forget(sourceId: string, jobIds: string[]): Promise<void>;
}

/** Seals source passwords for storage: bound to the workspace and source, so a sealed value cannot be moved. */
export interface CredentialVault {
  seal(plaintext: string, context: { workspaceId: string; sourceId: string }): Promise<string>;
  open(sealed: string, context: { workspaceId: string; sourceId: string }): Promise<string>;
}

/** A step of a sync to run: the first one, or the rest of a sync whose worker ran out of time. */
export interface SyncStepMessage {
  workspace_id: string;
  source_id: string;
  job_id: string;
}

/** Hands sync steps to the sync workers (SQS). */
export interface SyncQueue {
  enqueue(message: SyncStepMessage): Promise<void>;
}

/** The sources of every workspace whose next sync is due, for the schedule. */
export interface SourceSchedule {
  due(now: string, limit: number): Promise<Array<{ workspaceId: string; sourceId: string }>>;
  /** Unfinished syncs whose lease (or, never leased, whose queueing) ended before `before`: their worker vanished. */
  stalled(before: string, limit: number): Promise<Array<{ workspaceId: string; sourceId: string; jobId: string }>>;
}
