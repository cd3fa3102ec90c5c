import type { Erasure, ErasureCounts, ErasureStep, ScanPositions, ScanSegmentPosition } from './erasure';

/** The deletion records (one per workspace ever deleted), outside any workspace's keys so that they stay. */
export interface ErasureRepository {
  /**
   * Stores the record of a new erasure, or returns the one stored already (a second request of the same
   * deletion, or one retried): a workspace is erased once.
   */
  start(erasure: Erasure): Promise<Erasure>;
  find(workspaceId: string): Promise<Erasure | null>;
  /** Records a finished step and adds what it removed; idempotent for a step recorded already. */
  stepDone(workspaceId: string, step: ErasureStep, removed: Partial<ErasureCounts>): Promise<void>;
  /** Saves where a segment of the step's scan has got to (the step's saved positions are cleared by `stepDone`). */
  saveScanPosition(workspaceId: string, step: ErasureStep, segment: number, position: ScanSegmentPosition): Promise<void>;
  /** Marks the erasure completed. */
  complete(workspaceId: string, completedAt: string): Promise<void>;
  /** The erasures not completed, for a restart to queue again. */
  unfinished(): Promise<Erasure[]>;
}

/** Hands a workspace's erasure to the eraser worker (a message delivered twice is erased once). */
export interface ErasureQueue {
  enqueue(message: { workspace_id: string }): Promise<void>;
}

/** The table's part of an erasure. Every method is idempotent and returns how many items it deleted. */
export interface WorkspaceTableEraser {
  /** Deletes the workspace's webhooks and labelling rules (with their counters and deliveries). */
  eraseAutomation(workspaceId: string): Promise<number>;
  /**
   * Deletes every item of the workspace but its usage rows and its workspace record (and admin count): its members and all that
   * is theirs (tokens, settings, notifications, name and e-mail locks, rate buckets), its connections, and every
   * item under its keys.
   */
  eraseItems(workspaceId: string, checkpoint?: ScanCheckpoint): Promise<number>;
  /** Deletes the workspace's admin count, last; the workspace record stays (`deleting`), as the deletion's mark. */
  eraseWorkspaceRecord(workspaceId: string): Promise<number>;
}

/**
 * Where a table step's scan starts and how it records its way: a resumed step continues each segment from its
 * saved position (a finished segment is not read again) and saves each segment's position after each page.
 */
export interface ScanCheckpoint {
  /** The positions an earlier run of the step saved; empty to start from the beginning. */
  saved: ScanPositions;
  save(segment: number, position: ScanSegmentPosition): Promise<void>;
}

/** The bucket's part: every object, object version and delete marker under the workspace's prefixes. */
export interface WorkspaceObjectEraser {
  erase(workspaceId: string): Promise<number>;
}

/** The search index's part: the workspace's entries, tombstones and vocabulary. */
export interface WorkspaceIndexEraser {
  erase(workspaceId: string): Promise<number>;
}

/** Closes the workspace's WebSocket connections; returns how many. */
export interface WorkspaceConnectionCloser {
  closeAll(workspaceId: string): Promise<number>;
}
