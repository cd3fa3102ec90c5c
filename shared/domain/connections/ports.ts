/**
 * The WebSocket channel's connections: who holds one, with which token session, and what it subscribed to.
 * Below the areas that end sessions (auth, users) and the events that are pushed to connections.
 */

import type { Clock } from '../clock';

/**
 * Which authenticated connections a listing wants: one user's (within one workspace when given), one
 * workspace's, or every connection of the deployment ('all': the stale-connection sweep and the system count,
 * never an event).
 */
export type ConnectionAudience = { userId: string; workspaceId?: string } | { workspaceId: string } | 'all';

/** Whether an authenticated connection belongs to the audience, for views that filter connections they hold. */
export function inAudience(connection: Connection, audience: ConnectionAudience): boolean {
  if (connection.userId === null) return false;
  if (audience === 'all') return true;
  if ('userId' in audience) {
    return connection.userId === audience.userId && (audience.workspaceId === undefined || connection.workspaceId === audience.workspaceId);
  }
  return connection.workspaceId === audience.workspaceId;
}

/** Every P server event type, in the order the channel documents them. */
export const SERVER_EVENT_TYPES = [
  'ocr_progress',
  'sync_progress',
  'notification',
  'document_created',
  'document_updated',
  'queue_status',
  'export_progress',
] as const;

/** The type of a P server event: what a client may subscribe to. */
export type ServerEventType = (typeof SERVER_EVENT_TYPES)[number];

/** SPEC.md limit (P): live WebSocket connections per user. */
export const MAX_CONNECTIONS_PER_USER = 5;

/**
 * API Gateway closes a connection that sends a larger frame (with {@link WS_CLOSE_CODES.frameTooLarge}); the
 * local gateway does the same, so both runtimes take the same frames.
 */
export const MAX_FRAME_BYTES = 32 * 1024;

/**
 * The close codes (RFC 6455) a /ws client sees, as the gateways set them: API Gateway in the cloud, and
 * shared/local/websocket-gateway.ts, which mirrors it. Named here so that the channel's description
 * (api-contract/asyncapi) and the gateways speak of the same codes.
 */
export const WS_CLOSE_CODES = {
  /**
   * Every close the service decides (a refused token, the connection limit, the auth timeout, an ended
   * session, a spent message budget), after the error saying why: API Gateway's DeleteConnection sets no other.
   */
  closedByService: 1000,
  /** The connection's lifetime ({@link CONNECTION_LIFETIME_SECONDS}) is over. */
  lifetimeOver: 1001,
  /** A frame above {@link MAX_FRAME_BYTES}. */
  frameTooLarge: 1009,
  /** Never sent: what a client reports when it is dropped without a close frame (it let too much go unread). */
  dropped: 1006,
} as const;

/**
 * API Gateway ends every WebSocket connection after two hours, so a connection record outlives its socket by
 * at most this plus a margin; the table's TTL removes records whose $disconnect never arrived.
 */
export const CONNECTION_LIFETIME_SECONDS = 2 * 60 * 60;

/**
 * The token a connection authenticated with. A connection lives as long as that token: it ends when the token
 * is logged out, when its user's password changes (every older token version ends) or the user is deleted,
 * and when the token expires, unless the client sent `auth` again with a fresh token of the same user.
 */
export interface TokenSession {
  /** The token's jti. */
  tokenId: string;
  tokenVersion: number;
  /** ISO 8601. */
  expiresAt: string;
}

/** Why a connection's session was ended before its token expired. */
export type SessionEndReason = 'logout' | 'password_changed' | 'user_deleted' | 'workspace_suspended';

/** Which of a user's connections a session change applies to: all, one token's, or older token versions'. */
export interface SessionSelector {
  userId: string;
  tokenId?: string;
  /** Connections authenticated with a token of a version below this one. */
  tokenVersionBelow?: number;
}

/** A WebSocket connection as the channel keeps it. `userId` is null until the client authenticates. */
export interface Connection {
  id: string;
  userId: string | null;
  /**
   * The workspace of the user it authenticated as, whose events it receives. Null until it authenticates, and
   * on records written before workspaces existed: those receive no event until they authenticate again.
   */
  workspaceId: string | null;
  /** The event types the client asked for; null until it subscribes, which means every type. */
  subscriptions: ServerEventType[] | null;
  connectedAt: string;
  /** The token it authenticated with (absent on records written before connections kept it). */
  session?: TokenSession;
  /** Set once its session was ended: it receives no more events and is being closed. */
  ended?: SessionEndReason;
}

/** What an authentication attempt did to a connection. */
export type AuthenticateOutcome =
  /** The connection now belongs to the user (or already did). */
  | 'authenticated'
  /** The user already holds the maximum of live connections. */
  | 'limit'
  /** The connection is authenticated as another user (or as the same user in another workspace). */
  | 'other_user'
  /** There is no such connection (it closed meanwhile). */
  | 'gone';

/** Who authenticates a connection: the user, and the workspace whose events the connection then receives. */
export interface ConnectionMember {
  userId: string;
  workspaceId: string;
}

/**
 * The open connections and their state. Each user's live connections are counted so that the limit holds
 * when several connections authenticate at once.
 */
export interface ConnectionRepository {
  /** Records a new, unauthenticated connection. */
  open(connectionId: string, connectedAt: Date): Promise<void>;
  get(connectionId: string): Promise<Connection | null>;
  /**
   * Binds the connection to the user and their workspace unless that user already holds `limit` live
   * connections, with the token it authenticated with. Authenticating again as the same user (and workspace)
   * replaces the session (a refreshed token keeps the connection alive); a connection whose session has ended
   * is 'gone'.
   */
  authenticate(connectionId: string, member: ConnectionMember, limit: number, session?: TokenSession): Promise<AuthenticateOutcome>;
  /** Sets the event types the connection receives; false when the connection is gone. */
  subscribe(connectionId: string, events: ServerEventType[]): Promise<boolean>;
  /** Forgets the connection and frees its place in its user's count; removing twice is harmless. */
  remove(connectionId: string): Promise<void>;
  /** The live authenticated connections of the audience: one user's, one workspace's, or the deployment's. */
  listAuthenticated(audience: ConnectionAudience): Promise<Connection[]>;
  /**
   * Marks the selected connections' sessions ended (strongly consistent: a connection authenticated before the
   * call is found); answers the ids it marked (those already ended are left out). The `events` stream consumer,
   * seeing each record change, sends the connection its last message and closes it.
   */
  endSessions(selector: SessionSelector, reason: SessionEndReason): Promise<string[]>;
  /** Moves the connections of `selector.tokenId` to another token of the same user (a refresh); answers their ids. */
  moveSessions(selector: SessionSelector & { tokenId: string }, session: TokenSession): Promise<string[]>;
}

/** What became of one message pushed to a connection. */
export type SendResult = 'sent' | 'gone';

/** Pushes messages to, and closes, connections held by the WebSocket gateway (API Gateway's @connections). */
export interface ConnectionSender {
  /**
   * Sends one text message; 'gone' when the connection no longer exists. Other failures throw. An adapter
   * bounds its own calls; the publisher stops waiting after its send timeout regardless.
   */
  send(connectionId: string, message: string): Promise<SendResult>;
  /** Closes the connection; closing one that is gone is not an error. */
  close(connectionId: string): Promise<void>;
}

/** What the WebSocket channel's use cases work with. */
export interface ChannelDeps {
  connections: ConnectionRepository;
  connectionSender: ConnectionSender;
  clock: Clock;
}
