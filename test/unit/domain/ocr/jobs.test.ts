import { describe, expect, it } from 'vitest';
import { newOcrJob } from '../../../../shared/domain/ocr/jobs';

describe('newOcrJob', () => {
  it("queues the first run of a document's job under the document's id, in its language, by its uploader", () => {
    // Act
    const job = newOcrJob({ id: 'd-1', language: 'eng+deu', created_by: 'u-1' }, 'high', '2026-01-01T00:00:00.000Z');

    // Assert
    expect(job).toEqual({
      id: 'd-1',
      document_id: 'd-1',
      status: 'queued',
      priority: 'high',
      language: 'eng+deu',
      run: 1,
      attempts: 0,
      progress: 0,
      pages: null,
      cancel_requested: false,
      failure_reason: null,
      created_by: 'u-1',
      queued_at: '2026-01-01T00:00:00.000Z',
      started_at: null,
      heartbeat_at: null,
      finished_at: null,
      processing_time: null,
    });
  });
});
