import { afterEach, describe, expect, it, vi } from 'vitest';
import { withLogContext } from '../../../shared/observability/log-context';
import { debugLogBusinessMetrics } from '../../../shared/observability/logged-metrics';

afterEach(() => vi.restoreAllMocks());

describe('business metrics of the local runtime', () => {
  it('counts into a debug line with the context it was counted in', async () => {
    // Arrange
    vi.stubEnv('LOG_LEVEL', 'debug');
    vi.stubEnv('LOG_FORMAT', 'json');
    const lines: string[] = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));

    // Act
    withLogContext({ request_id: 'req-9' }, () => debugLogBusinessMetrics.count('DocumentsIngested'));

    // Assert
    vi.unstubAllEnvs();
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 'debug', metric: 'DocumentsIngested', value: 1, request_id: 'req-9' }));
  });
});
