/** Item keys of the single application table, in one place so that access patterns are easy to review. */
export const keys = {
  user: (id: string) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  usersIndex: 'USERS',
  usernameLock: (username: string) => ({ pk: `USERNAME#${username.toLowerCase()}`, sk: 'LOCK' }),
  emailLock: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'LOCK' }),
  identityLock: (issuer: string, subject: string) => ({ pk: `IDENTITY#${issuer}#${subject}`, sk: 'LOCK' }),
  settings: (userId: string) => ({ pk: `USER#${userId}`, sk: 'SETTINGS' }),
  revokedToken: (jti: string) => ({ pk: `REVOKED#${jti}`, sk: 'TOKEN' }),
  /** A personal API token, found by the SHA-256 (hex) of its secret: one read authenticates it. */
  apiToken: (hash: string) => ({ pk: `APITOKEN#${hash}`, sk: 'TOKEN' }),
  /** How many API tokens a user holds, moved in the same transaction as each token's create and delete. */
  apiTokenCount: (userId: string) => ({ pk: `USER#${userId}`, sk: 'APITOKENS' }),
  /** gsi1 partition of one workspace's API tokens, sorted `<user id>#<created_at>#<token id>`: one user's by prefix. */
  apiTokensIndex: (workspaceId: string) => `WS#${workspaceId}#APITOKENS`,
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
  /**
   * gsi1 partition of every workspace's enabled sources, sorted `<next_sync>#<workspace>#<source>`: the schedule
   * reads the due ones from its start. Operator-level like CONNCOUNTS: it holds ids, no workspace data.
   */
  sourceScheduleIndex: 'SOURCESCHEDULE',
  /** gsi1 partition of the syncs that have not finished, sorted `<lease end>#…`: the schedule restarts stalled ones. */
  activeSyncsIndex: 'ACTIVESYNCS',
} as const;

/**
 * Item keys of one workspace's data (documents, their text and OCR jobs, labels, staged uploads, counters): every
 * partition key, and every gsi1 partition that lists such items, starts with `WS#<workspace id>#`. A repository
 * holds the keys of the workspace it was made for, so no read or write of it can reach another workspace's items.
 */
export function dataKeys(workspaceId: string) {
  const ws = `WS#${workspaceId}#`;
  return {
    document: (id: string) => ({ pk: `${ws}DOC#${id}`, sk: 'META' }),
    documentContent: (id: string) => ({ pk: `${ws}DOC#${id}`, sk: 'CONTENT' }),
    /** gsi1 partition of the workspace's documents, by creation time. */
    documentsIndex: `${ws}DOCS`,
    documentCounter: { pk: `${ws}COUNTERS`, sk: 'DOCUMENTS' },
    label: (id: string) => ({ pk: `${ws}LABEL#${id}`, sk: 'META' }),
    labelsIndex: `${ws}LABELS`,
    /** Label names are unique per workspace. */
    labelNameLock: (name: string) => ({ pk: `${ws}LABELNAME#${name.toLowerCase()}`, sk: 'LOCK' }),
    /** One item per document carrying the label: the label's members, and what document_count counts. */
    labelMember: (labelId: string, documentId: string) => ({ pk: `${ws}LABEL#${labelId}`, sk: `DOC#${documentId}` }),
    /**
     * One partition of a sharded label (label-membership.ts): its `COUNT` item (the documents of the shard; its
     * existence is the label's, for the shard's writers) and the memberships of the documents hashed to it.
     */
    labelShardCount: (labelId: string, shard: number) => ({ pk: `${ws}LABEL#${labelId}#${shard}`, sk: 'COUNT' }),
    labelShardMember: (labelId: string, shard: number, documentId: string) => ({ pk: `${ws}LABEL#${labelId}#${shard}`, sk: `DOC#${documentId}` }),
    pendingUpload: (id: string) => ({ pk: `${ws}UPLOAD#${id}`, sk: 'PENDING' }),
    ocrJob: (documentId: string) => ({ pk: `${ws}DOC#${documentId}`, sk: 'OCRJOB' }),
    /** gsi1 partition of the workspace's OCR jobs in one status, high priority first, then oldest first. */
    ocrJobsIndex: (status: string) => `${ws}OCRJOBS#${status}`,
    ocrQueueCounters: { pk: `${ws}COUNTERS`, sk: 'OCRQUEUE' },
    ocrTotals: { pk: `${ws}COUNTERS`, sk: 'OCRTOTALS' },
    ocrDay: (date: string) => ({ pk: `${ws}OCRSTATS`, sk: date }),
    /**
     * The workspace's usage in one calendar month (UTC, `YYYY-MM`), moved with ADD in the same transactions as
     * the changes it counts; its months in one query (what was stored at a month's end sums the months up to it).
     */
    usageMonth: (month: string) => ({ pk: `${ws}USAGE`, sk: month }),
    /**
     * One shard of the workspace's usage in a month (see hot-counters.ts): every change adds to one shard picked at
     * random, in a partition of its own, and a read sums the shards and the unsharded item above.
     */
    usageShard: (shard: number, month: string) => ({ pk: `${ws}USAGE#${shard}`, sk: month }),
    /**
     * One shard of the workspace's storage ledger (documents and bytes stored, and the part of the plan's room
     * granted to the shard); the pool below holds what was granted in all. See storage-ledger.ts.
     */
    storageShard: (shard: number) => ({ pk: `${ws}STORAGE#${shard}`, sk: 'LEDGER' }),
    storagePool: { pk: `${ws}STORAGE`, sk: 'POOL' },
    /** A document's file by its SHA-256, moved with the document: finds a file stored already (a sync's duplicates). */
    documentHash: (sha256: string, documentId: string) => ({ pk: `${ws}DOCHASH#${sha256}`, sk: `DOC#${documentId}` }),
    documentHashes: (sha256: string) => `${ws}DOCHASH#${sha256}`,
    /** The workspace's sources, in one partition (a workspace has few), with each one's document counter beside it. */
    sourcesPartition: `${ws}SOURCES`,
    source: (id: string) => ({ pk: `${ws}SOURCES`, sk: `SOURCE#${id}` }),
    sourceDocumentCount: (id: string) => ({ pk: `${ws}SOURCES`, sk: `DOCCOUNT#${id}` }),
    /** A source's syncs, by job id. */
    syncJobs: (sourceId: string) => `${ws}SOURCE#${sourceId}#JOBS`,
    syncJob: (sourceId: string, jobId: string) => ({ pk: `${ws}SOURCE#${sourceId}#JOBS`, sk: jobId }),
    /**
     * What a source's syncs remember of one remote directory (`.` the directory, `F#<name>` its files, `D#<name>`
     * its subdirectories): one query reads a directory's state.
     */
    sourceDirectory: (sourceId: string, path: string) => `${ws}SOURCE#${sourceId}#DIR#${path}`,
    /** The workspace's webhook endpoints, in one partition (a workspace has few), with their count beside them. */
    webhooksPartition: `${ws}WEBHOOKS`,
    webhook: (id: string) => ({ pk: `${ws}WEBHOOKS`, sk: `WEBHOOK#${id}` }),
    webhookCount: { pk: `${ws}WEBHOOKS`, sk: 'COUNT' },
    /** One delivery of an event to an endpoint (found by its id from the queue's message). */
    webhookDelivery: (id: string) => ({ pk: `${ws}WHDELIVERY#${id}`, sk: 'META' }),
    /** gsi1 partition of one endpoint's deliveries, by creation time. */
    webhookDeliveriesIndex: (webhookId: string) => `${ws}WEBHOOK#${webhookId}#DELIVERIES`,
    /** The workspace's labelling rules, in one partition (at most 100), with their count beside them. */
    rulesPartition: `${ws}RULES`,
    rule: (id: string) => ({ pk: `${ws}RULES`, sk: `RULE#${id}` }),
    ruleCount: { pk: `${ws}RULES`, sk: 'COUNT' },
    /** The work a running sync has left (`D#<path>` directories to list, `F#<path>` files to fetch). */
    syncWork: (jobId: string) => `${ws}SYNCWORK#${jobId}`,
  };
}
export type DataKeys = ReturnType<typeof dataKeys>;

/** Where a repository of one workspace's data writes: the table, and the workspace's keys in it. */
export interface WorkspaceTable {
  tableName: string;
  keys: DataKeys;
}

/** DynamoDB TTL wants epoch seconds. */
export const ttlOf = (date: Date): number => Math.ceil(date.getTime() / 1000);

/** Strips the table's own attributes from an item so that only the entity's fields remain. */
export function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, ttl: _ttl, version: _version, ...entity } = item;
  return entity as T;
}
