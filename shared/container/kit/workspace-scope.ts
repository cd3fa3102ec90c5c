/** Deps with a `forWorkspace`: what a handler acting for callers holds, each store scoped to one workspace. */
export interface WorkspaceScoped<W extends object> {
  /**
   * One workspace's stores: each reaches only the workspace's items (its keys, its bucket prefix, its index view,
   * its id on each queued job), so that no use case can read across workspaces (see {@link inWorkspace}).
   */
  forWorkspace(workspaceId: string): W;
}

/** Deps as a use case acting for a caller takes them: every scoped store is the caller's workspace's. */
export type InWorkspace<C extends WorkspaceScoped<object>> = Omit<C, keyof ReturnType<C['forWorkspace']>> & ReturnType<C['forWorkspace']>;

/** Scopes the deps to the caller's workspace (the principal's, from the token; never one a request names). */
export const inWorkspace = <C extends WorkspaceScoped<object>>(c: C, caller: { workspaceId: string }): InWorkspace<C> =>
  ({ ...c, ...c.forWorkspace(caller.workspaceId) }) as InWorkspace<C>;
