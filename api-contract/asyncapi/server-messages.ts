import { SERVER_EVENT_TYPES, type ServerEventType } from '../../shared/domain/connections/ports';
import type { REPORTED_FIELDS } from '../../shared/domain/documents/document';
import type { ServerEvent, ServerEventData } from '../../shared/domain/events/ports';
import type { Notification } from '../../shared/domain/notifications/notification';
import type { OcrJobStatus } from '../../shared/domain/ocr/jobs';
import { EXPORT_STATES } from '../../shared/domain/portability/jobs';
import { closedObject, count, id, serverEnvelope, text, textEnum, type JsonSchema } from './schema';

/** A message of the channel as the document's `components.messages` holds it. */
export interface MessageDoc {
  name: string;
  title: string;
  summary: string;
  description: string;
  payload: JsonSchema;
  examples: { name: string; summary: string; payload: unknown }[];
}

/**
 * The JSON Schema of each field of an event's data, keyed like the event's TypeScript type: a field the type
 * gains or loses without its schema here does not compile.
 */
type DataFields<T extends ServerEventType> = { [K in keyof ServerEventData[T]]-?: JsonSchema };

interface EventDoc<T extends ServerEventType> {
  title: string;
  summary: string;
  description: string;
  /** Every field is always sent (deriveEvents builds each event whole). */
  data: DataFields<T>;
  example: Extract<ServerEvent, { type: T }>;
}

/** What an ocr_progress status says; keyed by job status, so that a status added to jobs needs a word here. */
const OCR_PROGRESS_STATUSES: Record<Exclude<OcrJobStatus, 'queued'>, string> = {
  processing: 'taken by a worker (progress 0) or reading pages',
  completed: 'finished, its text searchable (progress 100)',
  failed: 'finished without text (progress 100)',
  cancelled: 'cancelled while processing (progress 100)',
};

/** Notification types, keyed like the domain's union so that a new one is listed. */
const NOTIFICATION_TYPES: Record<Notification['type'], true> = {
  ocr_completed: true,
  ocr_failed: true,
  source_sync_completed: true,
  source_sync_failed: true,
  webhook_disabled: true,
};

const metadataValue: JsonSchema = { type: ['string', 'number', 'boolean', 'null'] };

/** The new value of each document field a document_updated reports, keyed by the fields deriveEvents compares. */
const CHANGED_FIELDS: Record<(typeof REPORTED_FIELDS)[number] | 'source', JsonSchema> = {
  title: text('The new title.'),
  labels: { type: 'array', items: id('A label id.'), description: 'The label ids the document now has.' },
  metadata: { type: 'object', additionalProperties: metadataValue, description: 'The whole new metadata (flat key/value).' },
  size: count('The new file size in bytes (a file a source replaced).'),
  mime_type: text('The new file type (a file a source replaced).'),
  source: id('The source whose file replaced the document file.'),
};

const EVENTS: { [T in ServerEventType]: EventDoc<T> } = {
  ocr_progress: {
    title: 'OCR progress',
    summary: "An OCR job's progress, to the user who uploaded the document.",
    description:
      'Sent when a worker takes the job (0, processing), after each page but the last, and at the end (100, completed, ' +
      'failed or cancelled). A queued job that is cancelled reports nothing.',
    data: {
      document_id: id('The document being read.'),
      progress: { type: 'number', minimum: 0, maximum: 100, description: 'Percent of the pages read.' },
      status: textEnum(
        Object.entries(OCR_PROGRESS_STATUSES).map(([status, meaning]) => `\`${status}\`: ${meaning}`).join('; '),
        Object.keys(OCR_PROGRESS_STATUSES),
      ),
    },
    example: { type: 'ocr_progress', data: { document_id: '3f0f5a44-8d1e-4c3b-9a55-0b8f1c2d7e61', progress: 40, status: 'processing' } },
  },
  sync_progress: {
    title: 'Source sync progress',
    summary: "A source sync's progress, to the workspace.",
    description:
      "Sent while a source syncs, when its counts, total or current file moved (at most one per batch of the table's " +
      'changes), and once when the sync ends (completed or failed), with `current_file` empty.',
    data: {
      source_id: id('The source being synced.'),
      processed: count('Files dealt with so far, whatever their outcome.'),
      total: count('Files the sync has found so far; at least `processed`.'),
      current_file: text('The path of the file being read; empty once the sync has ended.'),
    },
    example: { type: 'sync_progress', data: { source_id: '9b2e7c1a-5f3d-4e8b-a1c6-2d4f6e8a0b13', processed: 12, total: 40, current_file: '/scans/2024/invoice-0012.pdf' } },
  },
  export_progress: {
    title: 'Workspace export progress',
    summary: 'An export of the workspace, to the admin who asked for it.',
    description:
      'Sent when the export starts, as it writes documents (after each part of them, and at least every few seconds while it writes one large file), and when it ends (`completed`: GET /api/workspace/exports/{id} gives the download link; or `failed`).',
    data: {
      export_id: id('The export.'),
      status: textEnum('`queued`, `running`, `completed` or `failed`.', [...EXPORT_STATES]),
      progress: { type: 'integer', minimum: 0, maximum: 100, description: 'Percent of the documents written (100 once completed).' },
      documents_done: count('Documents written to the archive so far.'),
      documents_total: count('Documents of the workspace when the export began.'),
    },
    example: { type: 'export_progress', data: { export_id: '6b1f2a3c-4d5e-4f60-8a7b-9c0d1e2f3a4b', status: 'running', progress: 40, documents_done: 800, documents_total: 2000 } },
  },
  notification: {
    title: 'Notification',
    summary: 'A new notification, to its user (as GET /api/notifications lists it).',
    description: 'Sent when an OCR run or a source sync the user started has finished, and to every admin of the workspace when the service turns a webhook off (`webhook_disabled`).',
    data: {
      id: id('The notification id.'),
      type: textEnum('What happened.', Object.keys(NOTIFICATION_TYPES)),
      title: text('A short title.'),
      message: text('What happened, in a sentence.'),
    },
    example: {
      type: 'notification',
      data: { id: '5c8d2e4f-1a3b-4c6d-8e0f-7a9b1c3d5e7f', type: 'ocr_completed', title: 'OCR completed', message: '"Invoice 12" is searchable: 2 pages, 97% confidence' },
    },
  },
  document_created: {
    title: 'Document created',
    summary: 'A new document (an upload, or a file a source sync found), to the workspace.',
    description: 'Sent a moment after the upload or sync step that stored it.',
    data: {
      document_id: id('The new document.'),
      title: text('Its title.'),
      source: { anyOf: [id('The source it came from.'), { type: 'string', const: 'upload' }], description: 'The source id, or `upload`.' },
    },
    example: { type: 'document_created', data: { document_id: '3f0f5a44-8d1e-4c3b-9a55-0b8f1c2d7e61', title: 'Invoice 12', source: 'upload' } },
  },
  document_updated: {
    title: 'Document updated',
    summary: "A document's reported fields changed, to the workspace.",
    description:
      'Sent when a stored value of a reported field really changed: an edit, a label assigned or taken off (also by the ' +
      "label's deletion), a file a source replaced. OCR status changes and a label's rename send nothing.",
    data: {
      document_id: id('The document.'),
      changes: { ...closedObject(CHANGED_FIELDS, Object.keys(CHANGED_FIELDS)), minProperties: 1, description: 'Each field that changed, with its new value.' },
    },
    example: { type: 'document_updated', data: { document_id: '3f0f5a44-8d1e-4c3b-9a55-0b8f1c2d7e61', changes: { title: 'Invoice 12 (paid)' } } },
  },
  queue_status: {
    title: 'OCR queue status',
    summary: "The workspace's OCR queue counters, to the workspace.",
    description:
      'Sent whenever the pending or processing count moves (a job queued, taken, finished, retried or cancelled): one per ' +
      "batch of the table's changes, with the counters' latest state.",
    data: {
      pending: count('Jobs waiting for a worker.'),
      processing: count('Jobs being read.'),
      completed: count('Jobs completed today (UTC).'),
    },
    example: { type: 'queue_status', data: { pending: 3, processing: 1, completed: 17 } },
  },
};

/** Each P server event as a message of the document, keyed by its `type`. */
export function eventMessageDocs(): Record<ServerEventType, MessageDoc> {
  const docs = {} as Record<ServerEventType, MessageDoc>;
  for (const type of SERVER_EVENT_TYPES) {
    const doc = EVENTS[type] as EventDoc<ServerEventType>;
    const data = closedObject(doc.data as Record<string, JsonSchema>);
    docs[type] = {
      name: type,
      title: doc.title,
      summary: doc.summary,
      description: doc.description,
      payload: serverEnvelope(type, data),
      examples: [{ name: type, summary: doc.summary, payload: doc.example }],
    };
  }
  return docs;
}

/** The answers to client messages other than errors: auth_success, subscribed, pong. */
export function replyMessageDocs(): Record<'auth_success' | 'subscribed' | 'pong', MessageDoc> {
  const reply = (name: string, title: string, summary: string, description: string, data: JsonSchema, example: unknown): MessageDoc => ({
    name,
    title,
    summary,
    description,
    payload: serverEnvelope(name, data),
    examples: [{ name, summary, payload: example }],
  });
  return {
    auth_success: reply(
      'auth_success',
      'Authenticated',
      'The answer to a valid `auth`: the connection now receives events.',
      'An event published as the connection is stored may arrive just before it: take the first `auth_success` or `error` as the answer to `auth`.',
      closedObject({ user_id: id('The user the connection belongs to.'), username: text('Their username.') }),
      { type: 'auth_success', data: { user_id: '0d6f4c2a-7b8e-4f1a-9c3d-5e6f7a8b9c0d', username: 'alice' } },
    ),
    subscribed: reply(
      'subscribed',
      'Subscribed',
      'The answer to a valid `subscribe`: the event types the connection now receives.',
      '`notifications` comes back as `notification`; an empty list means no event at all.',
      closedObject({ events: { type: 'array', uniqueItems: true, items: textEnum('An event type.', SERVER_EVENT_TYPES) } }),
      { type: 'subscribed', data: { events: ['ocr_progress', 'notification'] } },
    ),
    pong: reply('pong', 'Pong', 'The answer to `ping`.', 'Its data is always empty.', closedObject({}), { type: 'pong', data: {} }),
  };
}
