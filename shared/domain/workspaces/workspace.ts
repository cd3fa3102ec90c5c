/** What a workspace may do: `active` serves; `suspended` and `deleting` refuse its users, tokens and workers. */
export const WORKSPACE_STATUSES = ['active', 'suspended', 'deleting'] as const;
export type WorkspaceStatus = (typeof WORKSPACE_STATUSES)[number];

/** A tenant: it owns its users, documents, labels, OCR jobs, files, search index entries and events. */
export interface Workspace {
  id: string;
  name: string;
  created_at: string;
  /**
   * The name of its plan (PLANS, see shared/domain/quotas). A workspace stored before plans existed reads as the
   * default plan (DEFAULT_PLAN).
   */
  plan: string;
  /** A workspace stored before statuses existed reads as `active`. */
  status: WorkspaceStatus;
  updated_at?: string;
}

/**
 * A workspace as created: without a plan it is on the default plan (it follows DEFAULT_PLAN until the operator
 * gives it one), without a status it is `active`.
 */
export type NewWorkspace = Omit<Workspace, 'plan' | 'status'> & Partial<Pick<Workspace, 'plan' | 'status'>>;

/** Whether a workspace of this status serves its users and runs its work (syncs, OCR, webhooks). */
export const isServing = (status: WorkspaceStatus): boolean => status === 'active';

/** The plan a workspace gets when the operator configured none (every limit unlimited). */
export const DEFAULT_PLAN_NAME = 'default';

/**
 * The id of the first workspace, the bootstrap admin's (the operator's). It is the same in every deployment
 * so that records written before workspaces existed are read as members of it without a lookup, in every
 * function and before any migration ran. No request ever names a workspace, so knowing it opens nothing.
 */
export const BOOTSTRAP_WORKSPACE_ID = '00000000-0000-4000-8000-000000000000';

export const BOOTSTRAP_WORKSPACE_NAME = 'Default workspace';
