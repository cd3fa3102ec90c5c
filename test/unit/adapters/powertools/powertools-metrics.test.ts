import { emfOf, total } from '../../../support/emf';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPowertoolsBusinessMetrics } from '../../../../shared/adapters/powertools/powertools-metrics';
import { BUSINESS_METRICS_NAMESPACE } from '../../../../shared/manifest';

afterEach(() => vi.restoreAllMocks());

describe('business metrics as CloudWatch embedded metrics', () => {
  it('publishes the counts of an invocation as one EMF line in the namespace, by service only', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({ POWERTOOLS_METRICS_NAMESPACE: 'DocServiceTest', POWERTOOLS_SERVICE_NAME: 'docservice-api' });
    metrics.count('DocumentsIngested');
    metrics.count('DocumentsIngested');
    metrics.count('PagesOcred', 3);

    // Act
    const [blob, ...more] = await emfOf(() => metrics.publish());

    // Assert
    expect(more).toEqual([]);
    const [directive] = blob._aws.CloudWatchMetrics;
    expect(directive.Namespace).toBe('DocServiceTest');
    expect(directive.Dimensions).toEqual([['service']]);
    expect(directive.Metrics).toEqual(
      expect.arrayContaining([
        { Name: 'DocumentsIngested', Unit: 'Count' },
        { Name: 'PagesOcred', Unit: 'Count' },
      ]),
    );
    expect(blob.service).toBe('docservice-api');
    expect(total(blob, 'DocumentsIngested')).toBe(2);
    expect(total(blob, 'PagesOcred')).toBe(3);
    expect(typeof blob._aws.Timestamp).toBe('number');
  });

  it('names the default namespace when the environment names none', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});
    metrics.count('OcrFailures');

    // Act
    const [blob] = await emfOf(() => metrics.publish());

    // Assert
    expect(blob._aws.CloudWatchMetrics[0].Namespace).toBe(BUSINESS_METRICS_NAMESPACE);
  });

  it('writes nothing when nothing was counted', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});

    // Act
    const lines = await emfOf(() => metrics.publish());

    // Assert
    expect(lines).toEqual([]);
  });

  it('starts again from nothing after a publish', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});
    metrics.count('TextractThrottles');
    await emfOf(() => metrics.publish());

    // Act
    const lines = await emfOf(() => metrics.publish());

    // Assert
    expect(lines).toEqual([]);
  });

  it('ignores a count that is negative or not a number instead of failing the work', async () => {
    // Arrange
    const metrics = createPowertoolsBusinessMetrics({});

    // Act
    metrics.count('PagesOcred', -1);
    metrics.count('PagesOcred', Number.NaN);
    const lines = await emfOf(() => metrics.publish());

    // Assert
    expect(lines).toEqual([]);
  });
});
