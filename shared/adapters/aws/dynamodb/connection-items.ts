import type { Connection, ServerEventType, SessionEndReason, SessionSelector, TokenSession } from '../../../domain/connections/ports';

type Item = Record<string, unknown>;

/** The session as the connection item's attributes. */
export const sessionAttributes = (session: TokenSession) => ({
  token_id: session.tokenId,
  token_version: session.tokenVersion,
  token_expires_at: session.expiresAt,
});

/**
 * The condition selecting a connection of the user whose session has not ended. A record written before
 * connections kept their token matches any token and version: ending too many sessions beats ending too few.
 */
export function selection(selector: SessionSelector): { condition: string; values: Record<string, unknown> } {
  const parts = ['user_id = :user', 'attribute_not_exists(ended)'];
  const values: Record<string, unknown> = { ':user': selector.userId };
  if (selector.tokenId !== undefined) {
    parts.push('(attribute_not_exists(token_id) OR token_id = :token)');
    values[':token'] = selector.tokenId;
  }
  if (selector.tokenVersionBelow !== undefined) {
    parts.push('(attribute_not_exists(token_version) OR token_version < :version)');
    values[':version'] = selector.tokenVersionBelow;
  }
  return { condition: parts.join(' AND '), values };
}

export function toConnection(item: Item): Connection {
  const connection: Connection = {
    id: item['connection_id'] as string,
    userId: typeof item['user_id'] === 'string' ? item['user_id'] : null,
    workspaceId: typeof item['workspace_id'] === 'string' ? item['workspace_id'] : null,
    subscriptions: Array.isArray(item['subscriptions']) ? (item['subscriptions'] as ServerEventType[]) : null,
    connectedAt: item['connected_at'] as string,
  };
  if (typeof item['token_id'] === 'string') {
    connection.session = {
      tokenId: item['token_id'],
      tokenVersion: Number(item['token_version']),
      expiresAt: String(item['token_expires_at']),
    };
  }
  if (typeof item['ended'] === 'string') connection.ended = item['ended'] as SessionEndReason;
  return connection;
}
