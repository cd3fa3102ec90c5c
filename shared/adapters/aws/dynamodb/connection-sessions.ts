import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ConnectionMember, SessionEndReason, SessionSelector, TokenSession } from '../../../domain/connections/ports';
import { selection, sessionAttributes } from './connection-items';
import { isConditionFailure } from './errors';
import { keys } from './keys';

/**
 * Ids of the user's authenticated connections, from the count item read strongly consistent (gsi1 is only
 * eventually consistent: a connection authenticated a moment ago might be missing from it).
 */
export async function authenticatedConnectionIds(db: DynamoDBDocumentClient, tableName: string, userId: string): Promise<string[]> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: keys.connectionCount(userId), ConsistentRead: true }));
  return Object.keys((Item?.['live'] ?? {}) as Record<string, number>);
}

/**
 * The token sessions of a user's WebSocket connections (see connection-repository.ts): ended when the
 * user logs out, changes their password, is deleted or their workspace suspended, or moved to the refreshed token, each an update of the
 * connection item conditioned on the selected user, token and version.
 */
export class DynamoConnectionSessions {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async endSessions(selector: SessionSelector, reason: SessionEndReason): Promise<string[]> {
    const ids = await authenticatedConnectionIds(this.db, this.tableName, selector.userId);
    const ended = await Promise.all(
      ids.map(async (connectionId) => {
        const { condition, values } = selection(selector);
        try {
          await this.db.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: keys.connection(connectionId),
              UpdateExpression: 'SET ended = :reason',
              ConditionExpression: condition,
              ExpressionAttributeValues: { ...values, ':reason': reason },
            }),
          );
          return [connectionId];
        } catch (error) {
          // Gone, another token's or version's, or already ended: not this call's to close.
          if (isConditionFailure(error)) return [];
          throw error;
        }
      }),
    );
    return ended.flat();
  }

  async moveSessions(selector: SessionSelector & { tokenId: string }, session: TokenSession): Promise<string[]> {
    const ids = await authenticatedConnectionIds(this.db, this.tableName, selector.userId);
    const moved = await Promise.all(
      ids.map(async (connectionId) => ((await this.setSession(connectionId, selector, session)) ? [connectionId] : [])),
    );
    return moved.flat();
  }

  /**
   * Replaces the session of a connection of the selected user (and token) whose session has not ended, and
   * with `joining` puts a record from before workspaces into the member's workspace; false when there is no
   * such connection.
   */
  async setSession(
    connectionId: string,
    selector: SessionSelector,
    session: TokenSession | undefined,
    joining?: ConnectionMember,
  ): Promise<boolean> {
    const { condition, values } = selection(selector);
    const fields: Record<string, unknown> = {
      ...(session ? sessionAttributes(session) : {}),
      ...(joining
        ? {
            workspace_id: joining.workspaceId,
            gsi1pk: keys.connectionsIndex(joining.workspaceId),
            gsi1sk: keys.connectionsIndexSort(joining.userId, connectionId),
          }
        : {}),
    };
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.connection(connectionId),
          UpdateExpression: `SET ${Object.keys(fields).map((field) => `${field} = :${field}`).join(', ')}`,
          ConditionExpression: joining ? `${condition} AND attribute_not_exists(workspace_id)` : condition,
          ExpressionAttributeValues: { ...values, ...Object.fromEntries(Object.entries(fields).map(([field, value]) => [`:${field}`, value])) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }
}
