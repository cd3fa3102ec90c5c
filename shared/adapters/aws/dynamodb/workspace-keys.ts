/**
 * Item keys of workspaces and their membership, beside the table's other keys (keys.ts):
 *
 * | item | pk | sk | |
 * |---|---|---|---|
 * | workspace | `WORKSPACE#<id>` | `META` | `gsi1pk = WORKSPACES`, `gsi1sk = <created_at>#<id>`: the operator's list |
 * | admin count | `WORKSPACE#<id>` | `ADMINS` | `admin_count`, moved in the same transaction as every change of an admin |
 * | user | `USER#<id>` | `PROFILE` | `workspace_id`; `gsi1pk = USERS#<workspace id>`, `gsi1sk = <created_at>#<id>`: a workspace's members |
 */
export const workspaceKeys = {
  workspace: (id: string) => ({ pk: `WORKSPACE#${id}`, sk: 'META' }),
  workspacesIndex: 'WORKSPACES',
  adminCount: (workspaceId: string) => ({ pk: `WORKSPACE#${workspaceId}`, sk: 'ADMINS' }),
  /** gsi1 partition of a workspace's users, oldest first. */
  membersIndex: (workspaceId: string) => `USERS#${workspaceId}`,
  /** gsi1 partition of every user written before workspaces existed; emptied by the adoption on start. */
  legacyUsersIndex: 'USERS',
} as const;
