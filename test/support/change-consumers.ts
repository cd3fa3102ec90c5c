import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterEach } from 'vitest';
import { startStreamPoller, type StreamPoller, type StreamPollerOptions } from '../../shared/local/event-sources/dynamodb-stream-poller';
import { DynamoChangeLedger } from '../../shared/adapters/aws/dynamodb/change-ledger';
import { DynamoConnectionRepository } from '../../shared/adapters/aws/dynamodb/connection-repository';
import { DynamoDocumentRepository } from '../../shared/adapters/aws/dynamodb/document-repository';
import { dataKeys } from '../../shared/adapters/aws/dynamodb/keys';
import { DynamoLabelRepository } from '../../shared/adapters/aws/dynamodb/label-repository';
import { DynamoNotificationRepository } from '../../shared/adapters/aws/dynamodb/notification-repository';
import { DynamoOcrJobRepository } from '../../shared/adapters/aws/dynamodb/ocr-job-repository';
import { DynamoSourceRepository } from '../../shared/adapters/aws/dynamodb/source-repository';
import { DynamoUserRepository } from '../../shared/adapters/aws/dynamodb/user-repository';
import { SqliteSearchIndex } from '../../shared/adapters/local/sqlite-search-index';
import { systemClock } from '../../shared/domain/clock';
import type { Audience, EventHub, ServerEvent } from '../../shared/domain/events/ports';
import type { ConnectionSender, SendResult } from '../../shared/domain/connections/ports';
import type { SearchIndex } from '../../shared/domain/search/ports';
import { createEventsHandler } from '../../functions/events/handler';
import { createIndexerHandler } from '../../functions/indexer/handler';
import { freshAppStreamTable } from './app-stream-table';
import { aSearchRequest } from './builders';

/** Short intervals, so that a test waits milliseconds where the defaults wait seconds. */
const FAST = { pollIntervalMs: 20, shardDiscoveryIntervalMs: 200, retryDelayMs: () => 10 };

const pollers: StreamPoller[] = [];
const indexes: SqliteSearchIndex[] = [];
afterEach(async () => {
  await Promise.all(pollers.splice(0).map((poller) => poller.stop()));
  for (const index of indexes.splice(0)) index.close();
});

export interface Published {
  workspaceId: string;
  event: ServerEvent;
  audience: Audience;
}

/** Stands in for API Gateway's @connections: records each message sent and each connection closed. */
export class RecordingSender implements ConnectionSender {
  readonly sent: { connectionId: string; message: unknown }[] = [];
  readonly closed: string[] = [];

  send(connectionId: string, message: string): Promise<SendResult> {
    this.sent.push({ connectionId, message: JSON.parse(message) });
    return Promise.resolve(this.closed.includes(connectionId) ? 'gone' : 'sent');
  }

  close(connectionId: string): Promise<void> {
    this.closed.push(connectionId);
    return Promise.resolve();
  }
}

/** Documents keep their text in the table here: the file store is never asked. */
const noFiles = { get: () => Promise.reject(new Error('no file store in these tests')) };

/**
 * A workspace on a fresh table with a stream, its real repositories, an in-memory SQLite search index, a
 * recording event hub and connection sender, with both consumers driven by the real stream poller. `index` may
 * wrap the index (faults); `poller` changes both pollers' options.
 */
export async function consumers(options: { index?: (index: SearchIndex) => SearchIndex; poller?: Partial<StreamPollerOptions> } = {}) {
  const { db, tableName, streams, streamArn } = await freshAppStreamTable();
  const workspaceId = crypto.randomUUID();
  const store = new SqliteSearchIndex(':memory:');
  indexes.push(store);
  const indexOf = (ws: string) => (options.index ?? ((index) => index))(store.forWorkspace(ws));
  const published: Published[] = [];
  const hub: EventHub = {
    forWorkspace: (ws) => ({
      publish: (event, audience) => {
        published.push({ workspaceId: ws, event, audience });
        return Promise.resolve();
      },
    }),
  };
  const sender = new RecordingSender();
  const users = new DynamoUserRepository(db, tableName);
  const indexer = createIndexerHandler({
    inWorkspace: (ws) => ({
      documents: new DynamoDocumentRepository(db, tableName, ws),
      labels: new DynamoLabelRepository(db, tableName, ws),
      files: noFiles,
      index: indexOf(ws),
    }),
  });
  const events = createEventsHandler({
    hub,
    connectionSender: sender,
    workspaceOfUser: async (userId) => (await users.findById(userId))?.workspace_id ?? null,
    completedOn: async (ws, date) => (await new DynamoOcrJobRepository(db, tableName, ws).daily(date, date))[0]?.completed ?? 0,
    ledger: new DynamoChangeLedger(db, tableName),
  });
  const delivered = { indexer: [] as DynamoDBRecord[], events: [] as DynamoDBRecord[] };
  const drive = (name: 'indexer' | 'events', handler: (event: DynamoDBStreamEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>) => {
    const poller = startStreamPoller({
      ...FAST,
      streams,
      source: { streamArn },
      functionName: name,
      handler: async (event) => {
        const response = await handler(event);
        const failed = response.batchItemFailures[0]?.itemIdentifier;
        const done = failed === undefined ? event.Records : event.Records.slice(0, event.Records.findIndex((r) => r.dynamodb?.SequenceNumber === failed));
        delivered[name].push(...done);
        return response;
      },
      ...options.poller,
    });
    pollers.push(poller);
  };
  drive('indexer', indexer);
  drive('events', events);
  const index = store.forWorkspace(workspaceId);
  return {
    db,
    tableName,
    workspaceId,
    indexer,
    events,
    delivered,
    published,
    sender,
    documents: new DynamoDocumentRepository(db, tableName, workspaceId),
    labels: new DynamoLabelRepository(db, tableName, workspaceId),
    ocrJobs: new DynamoOcrJobRepository(db, tableName, workspaceId),
    sources: new DynamoSourceRepository(db, tableName, workspaceId),
    connections: new DynamoConnectionRepository(db, tableName, systemClock),
    notifications: new DynamoNotificationRepository(db, tableName),
    users,
    /** The ids of the workspace's documents a search for the word (in `field`) finds. */
    found: async (word: string, field: 'all' | 'labels' = 'all') =>
      (await index.search(aSearchRequest({ query: { kind: 'term', field, value: word }, highlight: false }))).results.map((hit) => hit.document_id).sort(),
    /** Whether a consumer has applied a record of this document's record item (META) with this event name. */
    applied: (name: 'indexer' | 'events', documentId: string, eventName: DynamoDBRecord['eventName']) =>
      delivered[name].some((record) => record.eventName === eventName && record.dynamodb?.Keys?.['pk']?.S === dataKeys(workspaceId).document(documentId).pk && record.dynamodb.Keys['sk']?.S === 'META'),
    /** The events of one type published so far, as data. */
    eventsOf: <T extends ServerEvent['type']>(type: T) => published.filter((p) => p.event.type === type),
  };
}
