/** Item keys of the single application table, in one place so that access patterns are easy to review. */
export const keys = {
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  usersIndex: 'USERS',
  usernameLock: (username: string) => ({ pk: `USERNAME#${username.toLowerCase()}`, sk: 'LOCK' }),
  emailLock: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'LOCK' }),
  identityLock: (issuer: string, subject: string) => ({ pk: `IDENTITY#${issuer}#${subject}`, sk: 'LOCK' }),
  settings: (userId: string) => ({ pk: `USER#${userId}`, sk: 'SETTINGS' }),
  revokedToken: (jti: string) => ({ pk: `REVOKED#${jti}`, sk: 'TOKEN' }),
  document: (id: string) => ({ pk: `DOC#${id}`, sk: 'META' }),
  documentContent: (id: string) => ({ pk: `DOC#${id}`, sk: 'CONTENT' }),
  documentsIndex: 'DOCS',
  documentCounter: { pk: 'COUNTERS', sk: 'DOCUMENTS' },
  label: (id: string) => ({ pk: `LABEL#${id}`, sk: 'META' }),
  labelsIndex: 'LABELS',
  labelNameLock: (name: string) => ({ pk: `LABELNAME#${name.toLowerCase()}`, sk: 'LOCK' }),
  /** One item per document carrying the label: the label's members, and what document_count counts. */
  labelMember: (labelId: string, documentId: string) => ({ pk: `LABEL#${labelId}`, sk: `DOC#${documentId}` }),
  pendingUpload: (id: string) => ({ pk: `UPLOAD#${id}`, sk: 'PENDING' }),
  ocrJob: (documentId: string) => ({ pk: `DOC#${documentId}`, sk: 'OCRJOB' }),
  /** gsi1 partition of the OCR jobs in one status, high priority first, then oldest first. */
  ocrJobsIndex: (status: string) => `OCRJOBS#${status}`,
  ocrQueueCounters: { pk: 'COUNTERS', sk: 'OCRQUEUE' },
  ocrTotals: { pk: 'COUNTERS', sk: 'OCRTOTALS' },
  ocrDay: (date: string) => ({ pk: 'OCRSTATS', sk: date }),
  notification: (userId: string, id: string) => ({ pk: `USER#${userId}`, sk: `NOTIFICATION#${id}` }),
  /** gsi1 partition of one user's notifications, by creation time. */
  notificationsIndex: (userId: string) => `NOTIFICATIONS#${userId}`,
  /** One item per open WebSocket connection; authenticated ones are in gsi1 {@link keys.connectionsIndex}. */
  connection: (id: string) => ({ pk: `CONN#${id}`, sk: 'META' }),
  /**
   * gsi1 partition of one workspace's authenticated connections, sorted `<user id>#<connection id>`: a
   * workspace's in one query, one user's in it by prefix.
   */
  connectionsIndex: (workspaceId: string) => `WS#${workspaceId}#CONNS`,
  connectionsIndexSort: (userId: string, connectionId: string) => `${userId}#${connectionId}`,
  /**
   * gsi1 partition of the authenticated connections written before workspaces (no workspace id): no event
   * audience reads it; only the deployment-wide listing does, until their TTL removes them.
   */
  legacyConnectionsIndex: 'CONNS',
  /** How many authenticated connections a user holds, kept in the same transactions as the connections. */
  connectionCount: (userId: string) => ({ pk: `USER#${userId}`, sk: 'CONNECTIONS' }),
  /** gsi1 partition of the users' connection counts, sorted by user id: every connection of the deployment. */
  connectionCountsIndex: 'CONNCOUNTS',
  /** One token bucket of the rate limiter (per user, per user's uploads, per client IP, per failed-login name). */
  rateLimit: (bucket: string) => ({ pk: `RATE#${bucket}`, sk: 'BUCKET' }),
  oidcLogin: (state: string) => ({ pk: `OIDCLOGIN#${state}`, sk: 'PENDING' }),
} as const;

/** DynamoDB TTL wants epoch seconds. */
export const ttlOf = (date: Date): number => Math.ceil(date.getTime() / 1000);

/** Strips the table's own attributes from an item so that only the entity's fields remain. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ttl: _ttl, version: _version, ...entity } = item;
  return entity as T;
}
