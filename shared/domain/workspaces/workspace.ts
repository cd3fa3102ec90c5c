/** A tenant: it owns its users, documents, labels, OCR jobs, files, search index entries and events. */
export interface Workspace {
  id: string;
  name: string;
  created_at: string;
}

/**
 * The id of the first workspace, the bootstrap admin's (the operator's). It is the same in every deployment
 * so that records written before workspaces existed are read as members of it without a lookup, in every
 * function and before any migration ran. No request ever names a workspace, so knowing it opens nothing.
 */
export const BOOTSTRAP_WORKSPACE_ID = '00000000-0000-4000-8000-000000000000';

export const BOOTSTRAP_WORKSPACE_NAME = 'Default workspace';
