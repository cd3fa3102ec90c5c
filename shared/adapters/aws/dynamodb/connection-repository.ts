import {
  DeleteCommand,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../../domain/clock';
import { CONNECTION_LIFETIME_SECONDS, type AuthenticateOutcome, type Connection, type ConnectionAudience, type ConnectionMember, type ConnectionRepository, type ServerEventType, type SessionEndReason, type SessionSelector, type TokenSession } from '../../../domain/connections/ports';
import { failedConditions, isConditionFailure } from './errors';
import { sessionAttributes, toConnection } from './connection-items';
import { authenticatedConnectionIds, DynamoConnectionSessions } from './connection-sessions';
import { keys, ttlOf } from './keys';
import { batchGetAll, indexPartition, queryAll } from './queries';
import { LOST_RACE, MAX_OPTIMISTIC_ATTEMPTS, retryLostRaces } from '../../../domain/optimistic-retry';

/** A record outlives API Gateway's two-hour connection limit by this much before TTL may remove it. */
const TTL_MARGIN_SECONDS = 10 * 60;
/**
 * Transactions on one user's count conflict when their connections authenticate at once (five may): they try
 * again, twice as often as a plain lost race, after a short pause with jitter.
 */
const COUNT_CONFLICTS = { attempts: 2 * MAX_OPTIMISTIC_ATTEMPTS, backoffMs: (attempt: number) => 10 * attempt + Math.random() * 20 };

type Item = Record<string, unknown>;

/**
 * The TTL (epoch seconds) of a connection opened at `connectedAt`; past it the connection is treated as gone.
 * Exported so that a view of the connections kept elsewhere expires them exactly as this repository does.
 */
export const connectionTtl = (connectedAt: Date): number =>
  ttlOf(new Date(connectedAt.getTime() + (CONNECTION_LIFETIME_SECONDS + TTL_MARGIN_SECONDS) * 1000));

/** Whether a connection with this TTL is still live at `now`: TTL deletion lags by up to days. */
export const isLive = (ttl: number, now: Date): boolean => ttl * 1000 >= now.getTime();

/** The attributes a listing reads of a connection item. */
const LISTED = 'connection_id, user_id, workspace_id, subscriptions, connected_at, #ttl, token_id, token_version, token_expires_at, ended';

/**
 * WebSocket connections in the application table. Each connection is an item `CONN#<id> / META` whose TTL
 * follows API Gateway's two-hour maximum; once authenticated it carries the user and their workspace and
 * enters gsi1 `WS#<workspace>#CONNS` under `<user>#<connection>`, so one query lists a workspace's (an event
 * for the workspace) and a prefix lists one user's in it (a notification). Nothing lists connections across
 * workspaces but the deployment-wide listing below.
 *
 * The per-user limit is kept exact by an item `USER#<id> / CONNECTIONS` holding a map of the user's
 * authenticated connections (id → expiry in epoch seconds), changed in the same transaction as the connection:
 * a conditional `size(...) < limit` admits a connection, and removing a connection removes its entry. Entries
 * whose connection expired without a $disconnect (API Gateway's disconnect is best effort) are pruned when they
 * would refuse a connection, so a lost disconnect never locks a user out for longer than a connection lives.
 *
 * The deployment-wide listing ('all': the local gateway's stale-connection sweep and the system metrics count)
 * reads the count items, which are in gsi1 `CONNCOUNTS` (one item per user, sparse: only users who connected),
 * and then the live connections they name, 100 a BatchGet. That is one query over users plus reads of the
 * live connections, not a Scan of the table, and it needs no second index or second item per connection: the
 * count item is written by every authentication anyway. Records written before workspaces (gsi1 `CONNS`, no
 * workspace) are read by this listing only, so the sweep still forgets them; no event reaches them until they
 * authenticate again, which moves them into their user's workspace.
 */
export class DynamoConnectionRepository implements ConnectionRepository {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {
    this.sessions = new DynamoConnectionSessions(db, tableName);
  }

  private readonly sessions: DynamoConnectionSessions;

  async open(connectionId: string, connectedAt: Date): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.connection(connectionId),
          connection_id: connectionId,
          connected_at: connectedAt.toISOString(),
          ttl: connectionTtl(connectedAt),
        },
      }),
    );
  }

  async get(connectionId: string): Promise<Connection | null> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.connection(connectionId), ConsistentRead: true }),
    );
    return Item && this.live(Item) ? toConnection(Item) : null;
  }

  async authenticate(connectionId: string, member: ConnectionMember, limit: number, session?: TokenSession): Promise<AuthenticateOutcome> {
    const { userId, workspaceId } = member;
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.connection(connectionId), ConsistentRead: true }),
    );
    if (!Item || !this.live(Item) || typeof Item['ended'] === 'string') return 'gone';
    if (typeof Item['user_id'] === 'string') return this.reauthenticate(connectionId, toConnection(Item), member, session);
    const sessionFields = session ? sessionAttributes(session) : {};
    await this.ensureCount(userId);
    let pruned = false;
    let conflict: unknown;
    return retryLostRaces<AuthenticateOutcome>(
      async () => {
        try {
          await this.db.send(
            new TransactWriteCommand({
              TransactItems: [
                {
                  Update: {
                    TableName: this.tableName,
                    Key: keys.connection(connectionId),
                    UpdateExpression: [
                      'SET user_id = :user, workspace_id = :workspace, gsi1pk = :index, gsi1sk = :sort',
                      ...Object.keys(sessionFields).map((field) => `${field} = :${field}`),
                    ].join(', '),
                    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(user_id)',
                    ExpressionAttributeValues: {
                      ':user': userId,
                      ':workspace': workspaceId,
                      ':index': keys.connectionsIndex(workspaceId),
                      ':sort': keys.connectionsIndexSort(userId, connectionId),
                      ...Object.fromEntries(Object.entries(sessionFields).map(([field, value]) => [`:${field}`, value])),
                    },
                  },
                },
                {
                  Update: {
                    TableName: this.tableName,
                    Key: keys.connectionCount(userId),
                    UpdateExpression: 'SET #live.#id = :expires',
                    ConditionExpression: 'size(#live) < :limit',
                    ExpressionAttributeNames: { '#live': 'live', '#id': connectionId },
                    ExpressionAttributeValues: { ':expires': Item['ttl'], ':limit': limit },
                  },
                },
              ],
            }),
          );
          return 'authenticated';
        } catch (error) {
          const failed = failedConditions(error);
          if (failed === null) throw error;
          if (failed.includes(0)) {
            const connection = await this.get(connectionId);
            if (!connection || connection.ended) return 'gone';
            return this.reauthenticate(connectionId, connection, member, session);
          }
          if (failed.includes(1)) {
            if (pruned || !(await this.pruneExpired(userId))) return 'limit';
            pruned = true;
          }
          // Room was made, or another transaction on the user's count came first: try again.
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
      COUNT_CONFLICTS,
    );
  }

  async subscribe(connectionId: string, events: ServerEventType[]): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: keys.connection(connectionId),
          UpdateExpression: 'SET subscriptions = :events',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':events': events },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async remove(connectionId: string): Promise<void> {
    let conflict: unknown;
    return retryLostRaces<void>(
      async () => {
        const { Item } = await this.db.send(
          new GetCommand({ TableName: this.tableName, Key: keys.connection(connectionId), ConsistentRead: true }),
        );
        if (!Item) return;
        const userId = typeof Item['user_id'] === 'string' ? Item['user_id'] : null;
        try {
          if (userId === null) await this.deleteUnauthenticated(connectionId);
          else await this.deleteAuthenticated(connectionId, userId);
          return;
        } catch (error) {
          const failed = failedConditions(error);
          if (failed === null && !isConditionFailure(error)) throw error;
          // No count to take the connection out of (it was never counted): the connection goes alone.
          if (failed?.length === 1 && failed[0] === 1 && userId !== null) return this.deleteUncounted(connectionId, userId);
          // The connection authenticated, or was removed, meanwhile: look again.
          conflict = error;
          return LOST_RACE;
        }
      },
      () => {
        throw conflict;
      },
      COUNT_CONFLICTS,
    );
  }


  async listAuthenticated(audience: ConnectionAudience): Promise<Connection[]> {
    if (audience === 'all') return this.everyConnection();
    if ('userId' in audience && audience.workspaceId === undefined) return this.fetch(await authenticatedConnectionIds(this.db, this.tableName, audience.userId));
    const index = keys.connectionsIndex(audience.workspaceId!);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      IndexName: 'gsi1',
      ...('userId' in audience
        ? {
            KeyConditionExpression: 'gsi1pk = :index AND begins_with(gsi1sk, :user)',
            ExpressionAttributeValues: { ':index': index, ':user': `${audience.userId}#` },
          }
        : {
            KeyConditionExpression: 'gsi1pk = :index',
            ExpressionAttributeValues: { ':index': index },
          }),
      ProjectionExpression: LISTED,
      ExpressionAttributeNames: { '#ttl': 'ttl' },
    });
    return items.filter((item) => this.live(item)).map(toConnection);
  }

  /**
   * Every live authenticated connection of the deployment: those the users' counts name (see the class
   * comment), and those left from before workspaces.
   */
  private async everyConnection(): Promise<Connection[]> {
    const now = this.clock.now();
    const [counts, legacy] = await Promise.all([
      indexPartition(this.db, this.tableName, keys.connectionCountsIndex),
      indexPartition(this.db, this.tableName, keys.legacyConnectionsIndex),
    ]);
    const counted = counts.flatMap((item) =>
      Object.entries((item['live'] ?? {}) as Record<string, number>)
        .filter(([, expires]) => isLive(expires, now))
        .map(([id]) => id),
    );
    const connections = new Map((await this.fetch(counted)).map((connection) => [connection.id, connection]));
    for (const item of legacy) {
      if (this.live(item) && typeof item['user_id'] === 'string' && !connections.has(item['connection_id'] as string)) {
        connections.set(item['connection_id'] as string, toConnection(item));
      }
    }
    return [...connections.values()];
  }

  /** The live authenticated connections among these ids. */
  private async fetch(connectionIds: string[]): Promise<Connection[]> {
    const items = await batchGetAll(this.db, this.tableName, connectionIds.map(keys.connection));
    return items.filter((item) => this.live(item) && typeof item['user_id'] === 'string').map(toConnection);
  }

  endSessions(selector: SessionSelector, reason: SessionEndReason): Promise<string[]> {
    return this.sessions.endSessions(selector, reason);
  }

  moveSessions(selector: SessionSelector & { tokenId: string }, session: TokenSession): Promise<string[]> {
    return this.sessions.moveSessions(selector, session);
  }

  /**
   * Authentication of a connection that is already authenticated: the same user in the same workspace replaces
   * the session; a record from before workspaces joins the user's workspace (and so starts receiving its
   * events); anyone else is 'other_user', since a connection never changes hands.
   */
  private async reauthenticate(
    connectionId: string,
    current: Pick<Connection, 'userId' | 'workspaceId'>,
    member: ConnectionMember,
    session: TokenSession | undefined,
  ): Promise<AuthenticateOutcome> {
    if (current.userId !== member.userId) return 'other_user';
    if (current.workspaceId !== null && current.workspaceId !== member.workspaceId) return 'other_user';
    const joining = current.workspaceId === null ? member : undefined;
    if (!session && !joining) return 'authenticated';
    return (await this.sessions.setSession(connectionId, { userId: member.userId }, session, joining)) ? 'authenticated' : 'gone';
  }

  /**
   * The user's count item, created empty the first time (a map must exist before entries can be set in it),
   * and in the deployment-wide listing of counts (items written before it was are added here).
   */
  private async ensureCount(userId: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.connectionCount(userId),
        UpdateExpression: 'SET #live = if_not_exists(#live, :empty), gsi1pk = :counts, gsi1sk = :user',
        ExpressionAttributeNames: { '#live': 'live' },
        ExpressionAttributeValues: { ':empty': {}, ':counts': keys.connectionCountsIndex, ':user': userId },
      }),
    );
  }

  /** Drops the count's entries of connections past their expiry; answers whether there were any. */
  private async pruneExpired(userId: string): Promise<boolean> {
    const { Item } = await this.db.send(
      new GetCommand({ TableName: this.tableName, Key: keys.connectionCount(userId), ConsistentRead: true }),
    );
    const now = ttlOf(this.clock.now());
    const expired = Object.entries((Item?.['live'] ?? {}) as Record<string, number>).filter(([, expires]) => expires < now);
    if (!expired.length) return false;
    const names = Object.fromEntries(expired.map(([id], index) => [`#c${index}`, id]));
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.connectionCount(userId),
        UpdateExpression: `REMOVE ${expired.map((_, index) => `#live.#c${index}`).join(', ')}`,
        ExpressionAttributeNames: { '#live': 'live', ...names },
      }),
    );
    return true;
  }

  private async deleteUnauthenticated(connectionId: string): Promise<void> {
    await this.db.send(
      new DeleteCommand({
        TableName: this.tableName,
        Key: keys.connection(connectionId),
        ConditionExpression: 'attribute_not_exists(user_id)',
      }),
    );
  }

  private async deleteUncounted(connectionId: string, userId: string): Promise<void> {
    await this.db
      .send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.connection(connectionId),
          ConditionExpression: 'user_id = :user',
          ExpressionAttributeValues: { ':user': userId },
        }),
      )
      .catch((error: unknown) => {
        if (!isConditionFailure(error)) throw error;
      });
  }

  private async deleteAuthenticated(connectionId: string, userId: string): Promise<void> {
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: this.tableName,
              Key: keys.connection(connectionId),
              ConditionExpression: 'user_id = :user',
              ExpressionAttributeValues: { ':user': userId },
            },
          },
          {
            Update: {
              TableName: this.tableName,
              Key: keys.connectionCount(userId),
              UpdateExpression: 'REMOVE #live.#id',
              ConditionExpression: 'attribute_exists(#live)',
              ExpressionAttributeNames: { '#live': 'live', '#id': connectionId },
            },
          },
        ],
      }),
    );
  }

  /** TTL deletion lags by up to days: an expired connection is gone as far as callers are concerned. */
  private live(item: Item): boolean {
    return typeof item['ttl'] !== 'number' || isLive(item['ttl'], this.clock.now());
  }
}
