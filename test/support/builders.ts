import type { Clock } from '../../shared/domain/clock';
import type { DocumentRecord } from '../../shared/domain/documents/document';
import type { IndexedDocument, SearchRequest } from '../../shared/domain/search/ports';
import type { User } from '../../shared/domain/users/user';
import { BOOTSTRAP_WORKSPACE_ID } from '../../shared/domain/workspaces/workspace';
import type { SourceRecord } from '../../shared/domain/sources/source';
import { ZERO_COUNTS, type SyncJob } from '../../shared/domain/sources/sync-job';

/** A stored user with unique username and email; override what the test is about. */
export function aUser(overrides: Partial<User> = {}): User {
  const suffix = Math.random().toString(36).slice(2, 10);
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    workspace_id: BOOTSTRAP_WORKSPACE_ID,
    username: `user_${suffix}`,
    email: `user_${suffix}@example.com`,
    role: 'viewer',
    display_name: null,
    password_hash: 'scrypt$1$1$1$c2FsdA$a2V5',
    token_version: 0,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A pending 10-byte PDF uploaded by "uploader", OCR on in English; override what the test is about. */
export function aDocumentRecord(overrides: Partial<DocumentRecord> = {}): DocumentRecord {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    title: 'doc',
    filename: 'doc.pdf',
    mime_type: 'application/pdf',
    size: 10,
    sha256: 'abc',
    status: 'pending',
    ocr_enabled: true,
    language: 'eng',
    ocr_confidence: null,
    labels: [],
    metadata: {},
    source_id: null,
    failure_reason: null,
    created_by: 'uploader',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A search for "invoice" by relevance, first page of 20, highlights on; override what the test is about. */
export function aSearchRequest(overrides: Partial<SearchRequest> = {}): SearchRequest {
  return {
    query: { kind: 'term', field: 'all', value: 'invoice' },
    filters: {},
    fuzzy: false,
    highlight: true,
    sort: [{ field: 'relevance', order: 'desc' }],
    page: 1,
    perPage: 20,
    ...overrides,
  };
}

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(private current = new Date('2026-01-01T00:00:00Z')) {}

  now(): Date {
    return new Date(this.current);
  }

  advanceSeconds(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}

/** A stored source, idle, never synced; `overrides` sets anything else. */
export function aSourceRecord(overrides: Partial<SourceRecord> = {}): SourceRecord {
  const now = new Date().toISOString();
  return {
    id: crypto.randomUUID(),
    name: 'scans',
    type: 'webdav',
    url: 'https://dav.example.com/scans/',
    username: 'scanner',
    password_sealed: 'v1.sealed',
    sync_interval: 3600,
    recursive: true,
    file_patterns: ['*.pdf'],
    enabled: true,
    error: null,
    last_sync: null,
    next_sync: null,
    last_full_walk: null,
    current_job_id: null,
    last_job_id: null,
    created_by: 'editor',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A queued sync of a source, nothing counted yet. */
export function aSyncJob(sourceId: string, overrides: Partial<SyncJob> = {}): SyncJob {
  return {
    ...ZERO_COUNTS,
    job_id: crypto.randomUUID(),
    source_id: sourceId,
    state: 'queued',
    trigger: 'manual',
    started_by: 'editor',
    processed: 0,
    total: 0,
    current_file: null,
    errors: [],
    full_walk: true,
    queued_at: '2026-01-01T00:00:00.000Z',
    started_at: null,
    finished_at: null,
    failure: null,
    ...overrides,
  };
}

/** A completed document as the search index holds it. */
export function anIndexedDocument(overrides: Partial<IndexedDocument> = {}): IndexedDocument {
  return {
    id: 'd1',
    version: 4,
    title: 'Invoice',
    filename: 'a.pdf',
    content: 'text',
    mime_type: 'application/pdf',
    status: 'completed',
    labels: [],
    metadata: {},
    ocr_confidence: 0.9,
    size: 10,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}
