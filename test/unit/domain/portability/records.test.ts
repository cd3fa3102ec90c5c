import { describe, expect, it } from 'vitest';
import { ArchiveRejectedError } from '../../../../shared/domain/portability/archive-format';
import { linesOf, parseRecord, portableSource, portableWebhook } from '../../../../shared/domain/portability/records';

const document = {
  id: '0b5c3f0e-6a1d-4c2b-9e8f-7a6b5c4d3e2f',
  title: 'Invoice',
  filename: 'invoice.pdf',
  mime_type: 'application/pdf',
  size: 1234,
  sha256: 'c'.repeat(64),
  status: 'completed',
  ocr_enabled: true,
  language: 'eng',
  ocr_confidence: 0.93,
  labels: [],
  metadata: { customer: 'ACME' },
  source_id: null,
  failure_reason: null,
  created_by: 'u1',
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
  text: 'Total 12.00',
};

const reasonOf = (act: () => unknown) => {
  try {
    act();
    return 'accepted';
  } catch (error) {
    return error instanceof ArchiveRejectedError ? error.message : String(error);
  }
};

describe('parseRecord', () => {
  it('takes a document line with its text, confidence and source', () => {
    expect(parseRecord('documents', JSON.stringify(document), 'documents/000001.jsonl line 1')['text']).toBe('Total 12.00');
  });

  it('names the entry, line and field of a document whose confidence is outside 0..1', () => {
    expect(reasonOf(() => parseRecord('documents', JSON.stringify({ ...document, ocr_confidence: 93 }), 'documents/000001.jsonl line 4'))).toBe(
      'invalid_record: documents/000001.jsonl line 4: field ocr_confidence',
    );
  });

  it('refuses a line that is not JSON', () => {
    expect(reasonOf(() => parseRecord('labels', '{"id":', 'labels/000001.jsonl line 1'))).toBe('invalid_record: labels/000001.jsonl line 1: not JSON');
  });

  it('refuses a document whose sha256 is not a SHA-256', () => {
    expect(reasonOf(() => parseRecord('documents', JSON.stringify({ ...document, sha256: 'x' }), 'd line 1'))).toBe('invalid_record: d line 1: field sha256');
  });
});

describe('portable records', () => {
  it('a source leaves its sealed password behind', () => {
    const source = portableSource({ password_sealed: 'v1:secret', current_job_id: null, last_job_id: null } as never);

    expect(Object.keys(source)).not.toContain('password_sealed');
  });

  it('a webhook leaves its signing secrets behind', () => {
    const webhook = portableWebhook({ id: 'w', secrets: [{ secret_sealed: 'x' }] } as never);

    expect(Object.keys(webhook)).not.toContain('secrets');
  });
});

describe('linesOf', () => {
  it('skips blank lines and a final newline', () => {
    expect(linesOf(new TextEncoder().encode('{"a":1}\n\n{"b":2}\n'))).toEqual(['{"a":1}', '{"b":2}']);
  });
});
