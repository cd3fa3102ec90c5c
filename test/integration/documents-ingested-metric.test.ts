import { describe, expect, it } from 'vitest';
import { ensureBucket } from '../../shared/adapters/aws/provisioning';
import { S3FileStore } from '../../shared/adapters/aws/s3/file-store';
import { sha256 } from '../../shared/adapters/crypto/sha256';
import { inWorkspace } from '../../shared/container/app-container';
import type { BusinessMetric, BusinessMetrics } from '../../shared/domain/metrics/ports';
import { uploadDocument } from '../../shared/domain/documents/upload-document';
import { testClients, uniqueName } from '../support/aws-resources';
import { testContainer } from '../support/test-container';
import { textPdf } from '../support/text-pdf';

/** Business metrics kept in memory. */
class CountedMetrics implements BusinessMetrics {
  readonly counts: [BusinessMetric, number][] = [];
  count(metric: BusinessMetric, value = 1): void {
    this.counts.push([metric, value]);
  }
}

/** An uploader's view of a fresh workspace, over DynamoDB Local and the S3 emulator, counting into `metrics`. */
async function uploader(metrics: BusinessMetrics) {
  const { s3 } = testClients();
  const bucket = uniqueName('ingested');
  await ensureBucket(s3, bucket);
  const { c } = await testContainer({ files: new S3FileStore(s3, bucket), metrics });
  const workspaceId = crypto.randomUUID();
  await c.workspaces.create({ id: workspaceId, name: 'Metrics', created_at: new Date().toISOString() });
  const deps = { ...inWorkspace(c, { workspaceId }), sha256, ocrLanguages: async () => ['eng'] };
  return (bytes: Uint8Array) => uploadDocument(deps, { filename: 'a.pdf', bytes, labels: [], ocrEnabled: false, language: 'eng', createdBy: 'u-1' });
}

describe('the DocumentsIngested metric', () => {
  it('counts one for each document an upload creates', async () => {
    // Arrange
    const metrics = new CountedMetrics();
    const upload = await uploader(metrics);

    // Act
    await upload(textPdf([['First']]));
    await upload(textPdf([['Second']]));

    // Assert
    expect(metrics.counts).toEqual([
      ['DocumentsIngested', 1],
      ['DocumentsIngested', 1],
    ]);
  });

  it('counts nothing for an upload that is refused', async () => {
    // Arrange
    const metrics = new CountedMetrics();
    const upload = await uploader(metrics);

    // Act
    await upload(new TextEncoder().encode('not a document')).catch(() => undefined);

    // Assert
    expect(metrics.counts).toEqual([]);
  });
});
