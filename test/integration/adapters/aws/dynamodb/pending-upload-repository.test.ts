import { describe, expect, it } from 'vitest';
import { DynamoPendingUploadRepository } from '../../../../../shared/adapters/aws/dynamodb/pending-upload-repository';
import type { PendingUpload } from '../../../../../shared/domain/documents/ports';
import { ManualClock } from '../../../../support/builders';
import { freshTable } from '../../../../support/aws-resources';

/** The workspace these repositories serve. */
const WORKSPACE_ID = crypto.randomUUID();

const aPendingUpload = (now: Date, overrides: Partial<PendingUpload> = {}): PendingUpload => ({
  id: crypto.randomUUID(),
  filename: 'big.pdf',
  title: null,
  size: 1000,
  labels: [],
  ocr_enabled: true,
  language: 'eng',
  created_by: 'someone',
  created_at: now.toISOString(),
  expires_at: new Date(now.getTime() + 3600_000).toISOString(),
  state: 'awaiting_file',
  reason: null,
  ...overrides,
});

describe('DynamoPendingUploadRepository', () => {
  const repository = async (clock: ManualClock) => {
    const { db, tableName } = await freshTable();
    return new DynamoPendingUploadRepository(db, tableName, WORKSPACE_ID, clock);
  };

  it('reads back an announced upload', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const uploads = await repository(clock);
    const upload = aPendingUpload(clock.now());

    await uploads.create(upload);

    expect(await uploads.get(upload.id)).toEqual(upload);
  });

  it('keeps the reason of a refused upload', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const uploads = await repository(clock);
    const upload = aPendingUpload(clock.now());
    await uploads.create(upload);

    await uploads.reject(upload.id, 'the file is empty (0 bytes)');

    expect(await uploads.get(upload.id)).toMatchObject({ state: 'rejected', reason: 'the file is empty (0 bytes)' });
  });

  it('forgets an upload a day after its URL expired, before the TTL sweep removes it', async () => {
    const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
    const uploads = await repository(clock);
    const upload = aPendingUpload(clock.now());
    await uploads.create(upload);

    clock.advanceSeconds(3600 + 86_400 + 1);

    expect(await uploads.get(upload.id)).toBeNull();
  });
});
