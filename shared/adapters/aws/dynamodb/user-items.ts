import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { conflict, type AppError } from '../../../domain/errors';
import type { User } from '../../../domain/users/user';
import { BOOTSTRAP_WORKSPACE_ID } from '../../../domain/workspaces/workspace';
import { withoutKeys } from './keys';
import { workspaceKeys } from './workspace-keys';

export type Item = Record<string, unknown>;

/** A user item written before workspaces existed: it has no `workspace_id`. */
export const isLegacy = (item: Item): boolean => typeof item['workspace_id'] !== 'string';

/** A stored item as a user; one written before workspaces existed is a member of the bootstrap workspace. */
export function toUser(item: Item): User {
  const { identity_lock: _lock, ...user } = withoutKeys<User & { identity_lock?: string }>(item);
  return isLegacy(item) ? { ...user, workspace_id: BOOTSTRAP_WORKSPACE_ID } : user;
}

/** A transaction that lost to a concurrent one on the same item (DynamoDB does not retry these itself). */
export const isTransactionConflict = (error: unknown): boolean =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');

/**
 * The transaction item that moves a workspace's admin count by `delta`. Taking an admin away is conditional on
 * another one staying, so a workspace can never lose its last admin, however many changes race.
 */
export function adminCountChange(tableName: string, workspaceId: string, delta: number) {
  return {
    Update: {
      TableName: tableName,
      Key: workspaceKeys.adminCount(workspaceId),
      UpdateExpression: 'ADD admin_count :delta',
      ...(delta < 0
        ? { ConditionExpression: 'admin_count > :keep', ExpressionAttributeValues: { ':delta': delta, ':keep': -delta } }
        : { ExpressionAttributeValues: { ':delta': delta } }),
    },
  };
}

export const lastAdmin = (workspaceId: string): AppError =>
  conflict('A workspace keeps at least one admin: make another member an admin first', {
    resource: 'user',
    reason: 'last_admin',
    workspace_id: workspaceId,
  });
