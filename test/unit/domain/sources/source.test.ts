import { describe, expect, it } from 'vitest';
import { nextSyncAfter, statusOf, toSourceView } from '../../../../shared/domain/sources/source';
import { aSourceRecord } from '../../../support/builders';

describe('statusOf', () => {
  it('answers syncing while a sync runs, whatever else holds', () => {
    // Act
    const status = statusOf(aSourceRecord({ current_job_id: 'job', error: 'url: could not be reached', enabled: false }));

    // Assert
    expect(status).toBe('syncing');
  });

  it('answers error for an idle source whose last sync failed, enabled or not', () => {
    // Act
    const statuses = [true, false].map((enabled) => statusOf(aSourceRecord({ error: 'password: refused', enabled })));

    // Assert
    expect(statuses).toEqual(['error', 'error']);
  });

  it('answers active for an enabled idle source, disabled for one switched off', () => {
    // Act
    const statuses = [true, false].map((enabled) => statusOf(aSourceRecord({ enabled })));

    // Assert
    expect(statuses).toEqual(['active', 'disabled']);
  });
});

describe('toSourceView', () => {
  it('shows the source with its document count and never its password', () => {
    // Arrange
    const source = aSourceRecord({ next_sync: '2026-01-01T01:00:00.000Z' });

    // Act
    const view = toSourceView(source, 7);

    // Assert
    expect(view).toMatchObject({ id: source.id, url: source.url, document_count: 7, status: 'active', status_reason: null, next_sync: '2026-01-01T01:00:00.000Z' });
    expect(JSON.stringify(view)).not.toContain(source.password_sealed);
  });

  it('gives the reason of a failed source, and no next sync for a disabled one', () => {
    // Act
    const failed = toSourceView(aSourceRecord({ error: 'url: did not answer in time' }), 0);
    const disabled = toSourceView(aSourceRecord({ enabled: false, next_sync: '2026-01-01T01:00:00.000Z' }), 0);

    // Assert
    expect(failed).toMatchObject({ status: 'error', status_reason: 'url: did not answer in time' });
    expect(disabled).toMatchObject({ status: 'disabled', next_sync: null });
  });
});

describe('nextSyncAfter', () => {
  it('answers an interval after the given time', () => {
    // Act
    const next = nextSyncAfter(new Date('2026-01-01T00:00:00.000Z'), 3600);

    // Assert
    expect(next).toBe('2026-01-01T01:00:00.000Z');
  });
});
